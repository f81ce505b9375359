import type { RecordChange, StoreDatabase } from './database';

/**
 * What the database still lacks: the records touched since the last write (by app, entity, id) and
 * the shared-state sections, written only when their JSON changed. `commit()` is a group commit:
 * every caller in the same turn of the event loop shares one transaction, and each caller's promise
 * settles only once that transaction is durable.
 */

export interface DirtyRecord {
  app: string;
  entity: string;
  id: string;
}

export interface DurableSource {
  /** The record as it is now, or undefined when it was deleted. */
  currentRecord(app: string, entity: string, id: string): object | undefined;
  /** The shared state, by section name, as JSON-ready values. */
  sections(): Map<string, unknown>;
}

export class DurableWriter {
  private readonly dirty = new Map<string, DirtyRecord>();
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
    this.dirty.set(JSON.stringify([app, entity, id]), { app, entity, id });
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
    const records: RecordChange[] = [];
    for (const { app, entity, id } of this.dirty.values()) {
      const current = this.source.currentRecord(app, entity, id);
      records.push({ app, entity, id, body: current === undefined ? null : JSON.stringify(current) });
    }
    const sections = new Map<string, string>();
    for (const [name, value] of this.source.sections()) {
      const body = JSON.stringify(value);
      if (this.written.get(name) !== body) sections.set(name, body);
    }
    this.database.write(records, sections);
    this.dirty.clear();
    for (const [name, body] of sections) this.written.set(name, body);
  }
}
