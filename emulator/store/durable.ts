import type { EntryChange, RecordChange, StoreDatabase } from './database';

/**
 * What the database still lacks: the records and shared-list entries touched since the last write
 * (by app, entity or kind, id) and the small shared-state sections, written only when their JSON
 * changed. A commit costs what changed, not what is stored. `commit()` is a group commit: every
 * caller in the same turn of the event loop shares one transaction, and each caller's promise
 * settles only once that transaction is durable.
 */

export interface DurableSource {
  /** The record as it is now, or undefined when it was deleted. */
  currentRecord(app: string, entity: string, id: string): object | undefined;
  /** The entry of a shared list as it is now, or undefined when it was removed. */
  currentEntry(kind: string, app: string, id: string): object | undefined;
  /** The small shared state, by section name, as JSON-ready values. */
  sections(): Map<string, unknown>;
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
  private readonly written = new Map<string, string>();
  private pending: Promise<void> | null = null;

  constructor(
    private readonly database: StoreDatabase,
    private readonly source: DurableSource,
    writtenSections: ReadonlyMap<string, string>,
  ) {
    for (const [name, body] of writtenSections) this.written.set(name, body);
  }

  markRecord(app: string, entity: string, id: string): void {
    this.dirtyRecords.set(JSON.stringify([app, entity, id]), { group: entity, app, id });
  }

  markEntry(kind: string, app: string, id: string): void {
    this.dirtyEntries.set(JSON.stringify([kind, app, id]), { group: kind, app, id });
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

  private flush(): void {
    const json = (value: object | undefined) => (value === undefined ? null : JSON.stringify(value));
    const records: RecordChange[] = [];
    for (const { group: entity, app, id } of this.dirtyRecords.values())
      records.push({ app, entity, id, body: json(this.source.currentRecord(app, entity, id)) });
    const entries: EntryChange[] = [];
    for (const { group: kind, app, id } of this.dirtyEntries.values())
      entries.push({ kind, app, id, body: json(this.source.currentEntry(kind, app, id)) });
    const sections = new Map<string, string>();
    for (const [name, value] of this.source.sections()) {
      const body = JSON.stringify(value);
      if (this.written.get(name) !== body) sections.set(name, body);
    }
    this.database.write(records, entries, sections);
    this.dirtyRecords.clear();
    this.dirtyEntries.clear();
    for (const [name, body] of sections) this.written.set(name, body);
  }
}
