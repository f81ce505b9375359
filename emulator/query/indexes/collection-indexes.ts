import type { EntityRecord } from '../../core/types';
import { FieldIndex, type Slot } from './field-index';

/**
 * The indexes of one entity's records, kept in memory beside them (docs/ARCHITECTURE.md says why
 * not in SQLite): one FieldIndex per indexed field, built on first use and kept current by the
 * collection's observer on every load, put and remove. Each record has one slot, shared by all
 * its field indexes, with its sequence number in the collection's insertion order (an update keeps
 * it, as the Map keeps the record's place): how index answers are put back into the order a scan
 * would see.
 */

/** Told of every change of a record (undefined: absent), loads included. */
export interface RecordsObserver {
  changed(id: string, before: EntityRecord | undefined, after: EntityRecord | undefined): void;
}

/** What indexes need of an entity's records (the store's Collection is one). */
export interface ObservedRecords {
  /** Every record with its id, in insertion order. */
  pairs(): IterableIterator<[string, EntityRecord]>;
  /** Registers the one observer of every change. */
  observe(observer: RecordsObserver): void;
}

export class CollectionIndexes implements RecordsObserver {
  private readonly slots = new Map<string, Slot>();
  private nextSeq = 0;
  private readonly fields = new Map<string, FieldIndex>();

  private constructor(collection: ObservedRecords) {
    for (const [id, record] of collection.pairs()) this.slots.set(id, { id, seq: this.nextSeq++, record });
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
    return this.slots.size;
  }

  field(name: string): FieldIndex | undefined {
    return this.fields.get(name);
  }

  /** Builds the indexes of newly declared fields and drops those no schema declares any more. */
  private indexOnly(names: readonly string[]): void {
    const wanted = new Set(names);
    for (const name of this.fields.keys()) if (!wanted.has(name)) this.fields.delete(name);
    for (const name of wanted) {
      if (!this.fields.has(name)) this.fields.set(name, FieldIndex.build(name, this.slots.values()));
    }
  }

  changed(id: string, before: EntityRecord | undefined, after: EntityRecord | undefined): void {
    if (after === undefined) {
      for (const index of this.fields.values()) index.remove(id);
      this.slots.delete(id);
      return;
    }
    let slot = this.slots.get(id);
    if (slot && before !== undefined) slot.record = after;
    else {
      // A new record (or one re-inserted after a delete): last in insertion order, as in the Map.
      if (slot) for (const index of this.fields.values()) index.remove(id);
      slot = { id, seq: this.nextSeq++, record: after };
      this.slots.set(id, slot);
    }
    for (const index of this.fields.values()) index.add(slot);
  }
}

const known = new WeakMap<ObservedRecords, CollectionIndexes>();
