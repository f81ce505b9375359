import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

import { configure, createDatabaseFile, inspectDatabase, openLocked } from './database-file';
import { migrate } from './migrations';

/**
 * The emulator's on-disk database (SQLite through better-sqlite3): one row per entity record, one
 * row per entry of every other kind (accounts, codes, tickets, ended sessions, outbox, files,
 * conversations, page visits), and a few rows written once (the token secret and the app markers:
 * sections.ts). Every `write` is one transaction in WAL mode with `synchronous=FULL`, so once it
 * returns the change survives a crash or power loss, and its cost depends only on what changed. The file is held with an exclusive lock while open: one
 * process per data dir. `database-file.ts` checks that the file is the emulator's before opening it.
 */

export const DATABASE_FILE = 'emulator.sqlite';

export interface StoredRow {
  app: string;
  entity: string;
  id: string;
  body: string;
}

/** A record to write (`body` = its JSON) or to delete (`body` = null). */
export type RecordChange = Omit<StoredRow, 'body'> & { body: string | null };

/** A row of the growing shared state: `kind` says which list it belongs to (`outbox`, `file`, ...). */
export interface StoredEntry {
  kind: string;
  app: string;
  id: string;
  body: string;
}

export type EntryChange = Omit<StoredEntry, 'body'> & { body: string | null };

export class StoreDatabase {
  private constructor(private readonly db: Database.Database) {}

  static open(dataDir: string): StoreDatabase {
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, DATABASE_FILE);
    if (inspectDatabase(file, dataDir) === 'absent') createDatabaseFile(file);
    const db = openLocked(file, dataDir);
    try {
      // Checked again under the lock: the file may have changed between the first look and the lock.
      const identity = inspectDatabase(file, dataDir, db);
      configure(db);
      if (identity === 'version 1' || identity === 'version 2') migrate(db, identity);
    } catch (error) {
      db.close();
      throw error;
    }
    return new StoreDatabase(db);
  }

  /** Every record, in insertion order (an update keeps a record's place). */
  records(): StoredRow[] {
    return this.db.prepare('SELECT app, entity, id, body FROM records ORDER BY seq').all() as StoredRow[];
  }

  /** Every entry of the growing shared state, in insertion order. */
  entries(): StoredEntry[] {
    return this.db.prepare('SELECT kind, app, id, body FROM entries ORDER BY seq').all() as StoredEntry[];
  }

  sections(): Map<string, string> {
    const rows = this.db.prepare('SELECT name, body FROM state').all() as { name: string; body: string }[];
    return new Map(rows.map((row) => [row.name, row.body]));
  }

  /** Applies all changes in one durable transaction. */
  write(
    records: readonly RecordChange[],
    entries: readonly EntryChange[],
    sections: ReadonlyMap<string, string>,
  ): void {
    const upsert = this.db.prepare(
      'INSERT INTO records (app, entity, id, body) VALUES (?, ?, ?, ?) ON CONFLICT (app, entity, id) DO UPDATE SET body = excluded.body',
    );
    const remove = this.db.prepare('DELETE FROM records WHERE app = ? AND entity = ? AND id = ?');
    const putEntry = this.db.prepare(
      'INSERT INTO entries (kind, app, id, body) VALUES (?, ?, ?, ?) ON CONFLICT (kind, app, id) DO UPDATE SET body = excluded.body',
    );
    const removeEntry = this.db.prepare('DELETE FROM entries WHERE kind = ? AND app = ? AND id = ?');
    const putSection = this.db.prepare(
      'INSERT INTO state (name, body) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET body = excluded.body',
    );
    this.db.transaction(() => {
      for (const change of records) {
        if (change.body === null) remove.run(change.app, change.entity, change.id);
        else upsert.run(change.app, change.entity, change.id, change.body);
      }
      for (const change of entries) {
        if (change.body === null) removeEntry.run(change.kind, change.app, change.id);
        else putEntry.run(change.kind, change.app, change.id, change.body);
      }
      for (const [name, body] of sections) putSection.run(name, body);
    })();
  }

  /** Closes the database, which also releases the data dir for the next process. */
  close(): void {
    this.db.close();
  }
}
