import type { EntityRecord } from '../../core/types';
import { FieldIndex } from './field-index';

/**
 * The indexes of one entity's records, kept in memory beside them (docs/ARCHITECTURE.md says why
 * not in SQLite): one FieldIndex per indexed field, built on first use and kept current by the
 * collection's observer on every load, put and remove. Each record has a sequence number in the
 * collection's insertion order (an update keeps it, as the Map keeps the record's place), which is
 * how index answers are put back into the order a scan would see.
 */

/** Told of every change of a record (undefined: absent), loads included. */
export interface RecordsObserver {
  changed(id: string, before: EntityRecord | undefined, after: EntityRecord | undefined): void;
}

/** What indexes need of an entity's records (the store's Collection is one). */
export interface ObservedRecords {
  get(id: string): EntityRecord | undefined;
  /** Every record with its id, in insertion order. */
  entries(): IterableIterator<[string, EntityRecord]>;
  /** Registers the one observer of every change. */
  observe(observer: RecordsObserver): void;
}

export class CollectionIndexes implements RecordsObserver {
  private readonly seqs = new Map<string, number>();
  private nextSeq = 0;
  private readonly fields = new Map<string, FieldIndex>();

  private constructor(readonly collection: ObservedRecords) {
    for (const [id] of collection.entries()) this.seqs.set(id, this.nextSeq++);
    collection.observe(this);
  }

  /** The indexes of `collection` (created on first use), with exactly `fields` indexed. */
  static of(collection: ObservedRecords, fields: readonly string[]): CollectionIndexes {
    let indexes = known.get(collection);
    if (!indexes) {
      indexes = new CollectionIndexes(collection);
      known.set(collection, indexes);
    }
    indexes.indexOnly(fields);
    return indexes;
  }

  get size(): number {
    return this.seqs.size;
  }

  field(name: string): FieldIndex | undefined {
    return this.fields.get(name);
  }

  seqOf(id: string): number | undefined {
    return this.seqs.get(id);
  }

  private *numbered(): Generator<[string, number, EntityRecord]> {
    for (const [id, record] of this.collection.entries()) yield [id, this.seqs.get(id) as number, record];
  }

  /** Builds the indexes of newly declared fields and drops those no schema declares any more. */
  private indexOnly(names: readonly string[]): void {
    const wanted = new Set(names);
    for (const name of this.fields.keys()) if (!wanted.has(name)) this.fields.delete(name);
    for (const name of wanted) {
      if (this.fields.has(name)) continue;
      this.fields.set(name, FieldIndex.build(name, this.numbered()));
    }
  }

  changed(id: string, before: EntityRecord | undefined, after: EntityRecord | undefined): void {
    if (after === undefined) {
      for (const index of this.fields.values()) index.remove(id);
      this.seqs.delete(id);
      return;
    }
    let seq = this.seqs.get(id);
    if (before === undefined || seq === undefined) {
      seq = this.nextSeq++;
      this.seqs.set(id, seq);
    }
    for (const index of this.fields.values()) index.add(id, seq, after);
  }
}

const known = new WeakMap<ObservedRecords, CollectionIndexes>();
