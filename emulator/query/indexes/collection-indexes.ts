import type { EntityRecord } from '../../core/types';
import { FieldIndex, type Slot } from './field-index';

/**
 * The indexes of one entity's records, kept in memory beside them (docs/ARCHITECTURE.md says why
 * not in SQLite): one FieldIndex per indexed field, built when a read first needs that field's index
 * (a bulk load: cheaper than the one scan it replaces) and kept current by the collection's observer
 * on every load, put and remove. Fields no read has used yet cost nothing. Each record has one slot,
 * shared by all its field indexes, with its sequence number in the collection's insertion order (an
 * update keeps it, as the Map keeps the record's place): how index answers are put back into the
 * order a scan would see.
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
  /** The fields that may be indexed (built-ins and the schema's), and the indexes built so far. */
  private indexable = new Set<string>();
  private readonly fields = new Map<string, FieldIndex>();

  private constructor(collection: ObservedRecords) {
    for (const [id, record] of collection.pairs()) this.slots.set(id, this.slotOf(id, record));
    collection.observe(this);
  }

  /** The indexes of `collection` (created on first use), with exactly `fields` indexable. */
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

  /** The index of an indexable field, built now if no read needed it before; undefined for other fields. */
  field(name: string): FieldIndex | undefined {
    let index = this.fields.get(name);
    if (!index && this.indexable.has(name)) {
      index = FieldIndex.build(name, this.freePlace(), this.slots.values());
      this.fields.set(name, index);
    }
    return index;
  }

  /** The fields whose indexes exist (built by a read), in the order they were built. */
  built(): string[] {
    return [...this.fields.keys()];
  }

  private slotOf(id: string, record: EntityRecord): Slot {
    return { id, seq: this.nextSeq++, record, filed: [] };
  }

  /** The lowest place in the slots' `filed` no index holds. */
  private freePlace(): number {
    const taken = new Set([...this.fields.values()].map((index) => index.at));
    let at = 0;
    while (taken.has(at)) at += 1;
    return at;
  }

  /** Drops the indexes of fields no schema declares any more; newly declared fields are built on use. */
  private indexOnly(names: readonly string[]): void {
    if (names.length === this.indexable.size && names.every((name) => this.indexable.has(name))) return;
    this.indexable = new Set(names);
    for (const [name, index] of this.fields) {
      if (this.indexable.has(name)) continue;
      this.fields.delete(name);
      // Its place may go to another field's index: what it filed is forgotten.
      for (const slot of this.slots.values()) slot.filed[index.at] = undefined;
    }
  }

  changed(id: string, before: EntityRecord | undefined, after: EntityRecord | undefined): void {
    let slot = this.slots.get(id);
    if (after === undefined) {
      if (!slot) return;
      for (const index of this.fields.values()) index.remove(slot);
      this.slots.delete(id);
      return;
    }
    if (slot && before !== undefined) slot.record = after;
    else {
      // A new record (or one re-inserted after a delete): last in insertion order, as in the Map.
      if (slot) for (const index of this.fields.values()) index.remove(slot);
      slot = this.slotOf(id, after);
      this.slots.set(id, slot);
    }
    for (const index of this.fields.values()) index.add(slot);
  }
}

const known = new WeakMap<ObservedRecords, CollectionIndexes>();
