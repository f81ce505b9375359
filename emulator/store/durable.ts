import type { EntryChange, RecordChange, StoreDatabase } from './database';

/**
 * What the database still lacks: the records and entries touched since the last write (by app,
 * entity or kind, id) and the few small sections marked with their new text (the core and an app's
 * marker, each written once). A commit serializes and writes only these, never what it did not
 * touch: its cost is what changed, not what is stored. `commit()` is a group commit: every caller
 * in the same turn of the event loop shares one transaction, and each caller's promise settles only
 * once that transaction is durable.
 */

export interface DurableSource {
  /** The record as it is now, or undefined when it was deleted. */
  currentRecord(app: string, entity: string, id: string): unknown;
  /** The entry as it is now, or undefined when it was removed. */
  currentEntry(kind: string, app: string, id: string): unknown;
}

interface Dirty {
  /** Entity name for records, list kind for entries. */
  group: string;
  app: string;
  id: string;
}

export class DurableWriter {
  private readonly dirtyRecords = new Map<string, Dirty>();
  private readonly dirtyEntries = new Map<string, Dirty>();
  private readonly dirtySections = new Map<string, string>();
  private pending: Promise<void> | null = null;

  constructor(
    private readonly database: StoreDatabase,
    private readonly source: DurableSource,
  ) {}

  markRecord(app: string, entity: string, id: string): void {
    this.dirtyRecords.set(JSON.stringify([app, entity, id]), { group: entity, app, id });
  }

  markEntry(kind: string, app: string, id: string): void {
    this.dirtyEntries.set(JSON.stringify([kind, app, id]), { group: kind, app, id });
  }

  markSection(name: string, body: string): void {
    this.dirtySections.set(name, body);
  }

  commit(): Promise<void> {
    this.pending ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.pending = null;
        try {
          this.flush();
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
    return this.pending;
  }

  async idle(): Promise<void> {
    await this.pending?.catch(() => undefined);
  }

  /** Writes everything marked, now, in one transaction (also used while the store opens). */
  flush(): void {
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    const records: RecordChange[] = [];
    for (const { group: entity, app, id } of this.dirtyRecords.values())
      records.push({ app, entity, id, body: json(this.source.currentRecord(app, entity, id)) });
    const entries: EntryChange[] = [];
    for (const { group: kind, app, id } of this.dirtyEntries.values())
      entries.push({ kind, app, id, body: json(this.source.currentEntry(kind, app, id)) });
    if (records.length === 0 && entries.length === 0 && this.dirtySections.size === 0) return;
    this.database.write(records, entries, this.dirtySections);
    this.dirtyRecords.clear();
    this.dirtyEntries.clear();
    this.dirtySections.clear();
  }
}
