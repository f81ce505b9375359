import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * The emulator's on-disk database (SQLite through better-sqlite3): one row per entity record, plus
 * a few rows of small shared state (accounts, tickets, outbox, conversations). Every `write` is one
 * transaction in WAL mode with `synchronous=FULL`, so once it returns the change survives a crash
 * or power loss, and its cost does not grow with the number of records.
 */

export const DATABASE_FILE = 'emulator.sqlite';
const SCHEMA_VERSION = 1;

export interface StoredRow {
  app: string;
  entity: string;
  id: string;
  body: string;
}

/** A record to write (`body` = its JSON) or to delete (`body` = null). */
export type RecordChange = Omit<StoredRow, 'body'> & { body: string | null };

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** Refuses a non-empty file that is not SQLite before SQLite itself opens (and could write to) it. */
function requireSqliteOrAbsent(file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (size === 0) return;
  const header = Buffer.alloc(SQLITE_MAGIC.length);
  const handle = openSync(file, 'r');
  try {
    readSync(handle, header, 0, header.length, 0);
  } finally {
    closeSync(handle);
  }
  if (!header.equals(SQLITE_MAGIC))
    throw new Error(`${file} is not a database of the emulator (no SQLite header). Move it away to start.`);
}

export class StoreDatabase {
  private constructor(private readonly db: Database.Database) {}

  static open(dataDir: string): StoreDatabase {
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, DATABASE_FILE);
    requireSqliteOrAbsent(file);
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version !== 0 && version !== SCHEMA_VERSION) {
        throw new Error(
          `The emulator database in ${dataDir} has schema version ${version}; this emulator reads version ${SCHEMA_VERSION}.`,
        );
      }
      db.exec(`
        CREATE TABLE IF NOT EXISTS records (
          seq INTEGER PRIMARY KEY,
          app TEXT NOT NULL,
          entity TEXT NOT NULL,
          id TEXT NOT NULL,
          body TEXT NOT NULL,
          UNIQUE (app, entity, id)
        );
        CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, body TEXT NOT NULL);
      `);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
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

  sections(): Map<string, string> {
    const rows = this.db.prepare('SELECT name, body FROM state').all() as { name: string; body: string }[];
    return new Map(rows.map((row) => [row.name, row.body]));
  }

  /** Applies all changes in one durable transaction. */
  write(records: readonly RecordChange[], sections: ReadonlyMap<string, string>): void {
    const upsert = this.db.prepare(
      'INSERT INTO records (app, entity, id, body) VALUES (?, ?, ?, ?) ON CONFLICT (app, entity, id) DO UPDATE SET body = excluded.body',
    );
    const remove = this.db.prepare('DELETE FROM records WHERE app = ? AND entity = ? AND id = ?');
    const putSection = this.db.prepare(
      'INSERT INTO state (name, body) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET body = excluded.body',
    );
    this.db.transaction(() => {
      for (const change of records) {
        if (change.body === null) remove.run(change.app, change.entity, change.id);
        else upsert.run(change.app, change.entity, change.id, change.body);
      }
      for (const [name, body] of sections) putSection.run(name, body);
    })();
  }

  close(): void {
    this.db.close();
  }
}
