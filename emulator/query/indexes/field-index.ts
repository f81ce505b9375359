import BTree from 'sorted-btree';
import { bulkLoad } from 'sorted-btree/extended/bulkLoad';

import type { EntityRecord } from '../../core/types';
import { valueAt } from '../engine';
import { compareSortKeys } from '../sort';
import { entriesBelow, leafStretches, rootOf } from './btree-nodes';

/**
 * One field's index: every record filed under the values it holds there, in MongoDB's order of
 * values (sort.ts), ties by insertion order. A scalar is filed under itself; a missing field and
 * null under null (where a sort puts them); an empty array under itself (it sorts first); a
 * non-empty array under each of its elements (a "multikey" entry, as MongoDB files arrays). That
 * one order serves both uses:
 *
 * - filters: the records holding a value (or an array element) equal to, or in a range of, a
 *   scalar are one stretch of the tree;
 * - sorts: walked upwards, a record first appears at its smallest element, its ascending sort key;
 *   walked downwards, at its largest, its descending key, and records with equal keys come in
 *   insertion order (reversed downwards), exactly as sortRecords orders them.
 *
 * The keys each record was filed under are kept with it, so an update or delete removes exactly
 * those even if the stored object was changed in place.
 */

/**
 * A position in the tree: the value, then the record's insertion sequence number; an entry's key
 * also carries its record's slot (bounds of a search do not).
 */
export type IndexKey = readonly [value: unknown, seq: number, slot?: Slot];

export function compareIndexKeys(left: IndexKey, right: IndexKey): number {
  const a = left[0];
  const b = right[0];
  // Two numbers or two strings, nearly every comparison, without a call.
  if (typeof a === typeof b && (typeof a === 'number' || typeof a === 'string'))
    return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : left[1] - right[1];
  return compareSortKeys(a, b) || left[1] - right[1];
}

/** The values a record is filed under for `field` (one, or one per distinct array element). */
function filedValues(record: Record<string, unknown>, field: string): unknown[] {
  const value = valueAt(record, field);
  if (!Array.isArray(value) || value.length === 0) return [value ?? null];
  const distinct: unknown[] = [];
  for (const element of value) {
    const key = element ?? null;
    if (!distinct.some((seen) => compareSortKeys(seen, key) === 0)) distinct.push(key);
  }
  return distinct;
}

/** What one index filed a record under: its one key (most records), or one per distinct array element. */
export type Filed = IndexKey | IndexKey[];

/**
 * One record as every index of its entity holds it: the value of each tree entry. An update
 * replaces `record` here, so an index whose keys did not change has nothing to do, and a read finds
 * the record without looking its id up. `filed[at]` holds what the index numbered `at` filed it
 * under (kept here rather than in a map per index: one array write per record and index on a build).
 */
export interface Slot {
  readonly id: string;
  /** The record's place in insertion order. */
  readonly seq: number;
  record: EntityRecord;
  readonly filed: (Filed | undefined)[];
}

/** Told of each entry met, in order; returning false stops the visit. */
export type EntryVisitor = (value: unknown, slot: Slot) => boolean | void;

const NODE_SIZE = 64;

/** In valueBySeq: the record is filed under several values (read its slot). */
const SEVERAL = Symbol('several values');

// A list of keys has two or more, so its second item is a key, not a sequence number.
const isSingle = (filed: Filed): filed is IndexKey => typeof filed[1] === 'number';
const listOf = (filed: Filed): readonly IndexKey[] => (isSingle(filed) ? [filed] : filed);

export class FieldIndex {
  private tree = new BTree<IndexKey, Slot>(undefined, compareIndexKeys, NODE_SIZE);
  /** Records filed under more than one value (arrays of two or more distinct elements). */
  private multikeyRecords = 0;
  private filedRecords = 0;
  /**
   * What each filed record (by its seq) is filed under: the value, or SEVERAL. A count checks the
   * other conditions here by the seq in the walked entry's key, without reading each record's
   * slot (filesEntry): scattered slots made that the main cost of a count at 50,000 records. A
   * record's place stays (undefined) after it is deleted.
   */
  private readonly valueBySeq: unknown[] = [];

  /** `at`: this index's place in every slot's `filed`. */
  constructor(
    readonly field: string,
    readonly at: number,
  ) {}

  /**
   * The index of `slots`, loaded in one sorted pass: each record's keys, one sort, and a bulk load
   * of the tree's leaves (no insert one by one).
   */
  static build(field: string, at: number, slots: Iterable<Slot>): FieldIndex {
    const index = new FieldIndex(field, at);
    const keys: IndexKey[] = [];
    for (const slot of slots) {
      const filed = index.fileIn(slot);
      if (isSingle(filed)) keys.push(filed);
      else keys.push(...filed);
    }
    keys.sort(compareIndexKeys);
    index.tree = bulkLoad(keys, keys.map(slotOf), NODE_SIZE, compareIndexKeys);
    return index;
  }

  /** How many records are filed (each once, whatever its number of values). */
  get size(): number {
    return this.filedRecords;
  }

  /** True when some record is filed under several values: a record may then appear more than once. */
  get multikey(): boolean {
    return this.multikeyRecords > 0;
  }

  /** Files the slot's record (its keys kept in the slot) and returns its keys. */
  private fileIn(slot: Slot): Filed {
    const values = filedValues(slot.record, this.field);
    const filed: Filed =
      values.length === 1 ? [values[0], slot.seq, slot] : values.map((value): IndexKey => [value, slot.seq, slot]);
    slot.filed[this.at] = filed;
    this.valueBySeq[slot.seq] = values.length === 1 ? values[0] : SEVERAL;
    this.filedRecords += 1;
    if (values.length > 1) this.multikeyRecords += 1;
    return filed;
  }

  /** Files a new slot, or refiles an updated one whose values here changed. */
  add(slot: Slot): void {
    const previous = slot.filed[this.at];
    if (previous) {
      if (sameValues(listOf(previous), filedValues(slot.record, this.field))) return;
      this.remove(slot);
    }
    const filed = this.fileIn(slot);
    for (const key of listOf(filed)) this.tree.set(key, slot);
  }

  remove(slot: Slot): void {
    const filed = slot.filed[this.at];
    if (!filed) return;
    for (const key of listOf(filed)) this.tree.delete(key);
    slot.filed[this.at] = undefined;
    this.valueBySeq[slot.seq] = undefined;
    this.filedRecords -= 1;
    if (!isSingle(filed)) this.multikeyRecords -= 1;
  }

  /** True when the slot is filed under a value `accepts` takes. */
  files(slot: Slot, accepts: (value: unknown) => boolean): boolean {
    const filed = slot.filed[this.at];
    if (!filed) return false;
    if (isSingle(filed)) return accepts(filed[0]);
    return filed.some((key) => accepts(key[0]));
  }

  /** As files, for the record of an entry of any index of the collection (its key carries seq and slot). */
  filesEntry(key: IndexKey, accepts: (value: unknown) => boolean): boolean {
    const value = this.valueBySeq[key[1]];
    if (value === SEVERAL) return this.files(key[2] as Slot, accepts);
    // A missing field is filed under null: undefined is a record this index does not hold.
    return value !== undefined && accepts(value);
  }

  /**
   * Visits the entries from `start` (inclusive; the lowest value when undefined) upwards, or
   * downwards when `descending`, until `visit` returns false. A multikey record comes once per value.
   */
  visit(descending: boolean, start: unknown, visit: EntryVisitor): void {
    // One reused pair for the whole visit: no allocation per entry.
    const reused: unknown[] = [];
    const entries = descending
      ? this.tree.entriesReversed(start === undefined ? undefined : [start, Infinity], reused as never)
      : this.tree.entries(start === undefined ? undefined : [start, -Infinity], reused as never);
    for (let next = entries.next(); !next.done; next = entries.next()) {
      const pair = next.value;
      if (visit(pair[0][0], pair[1]) === false) return;
    }
  }

  /** As visit, each record only at its first entry in that direction: its sort key (see above). */
  walk(descending: boolean, start: unknown, visit: EntryVisitor): void {
    if (!this.multikey) return this.visit(descending, start, visit);
    const seen = new Set<number>();
    this.visit(descending, start, (value, slot) => {
      if (seen.has(slot.seq)) return true;
      seen.add(slot.seq);
      return visit(value, slot);
    });
  }

  /** Visits every entry from `low` to `high` (both included) upwards, leaf by leaf. */
  between(low: IndexKey, high: IndexKey, visit: (value: unknown, slot: Slot) => void): void {
    if (compareIndexKeys(low, high) > 0) return;
    // The callback returns nothing: anything else would be a command to the tree.
    this.tree.forRange(low, high, true, (key, slot) => {
      visit(key[0], slot);
    });
  }

  /**
   * How many entries from `low` to `high` (both included) `test` accepts, reading the leaves' key
   * arrays directly (no callback per entry from the tree).
   */
  countWhere(low: IndexKey, high: IndexKey, test: (key: IndexKey) => boolean): number {
    let count = 0;
    leafStretches(rootOf(this.tree), low, high, compareIndexKeys, (keys, from, to) => {
      for (let at = from; at < to; at += 1) if (test(keys[at] as IndexKey)) count += 1;
    });
    return count;
  }

  /** How many entries lie between `low` and `high` (bounds, whose seq is ±Infinity, are never entries). */
  countBetween(low: IndexKey, high: IndexKey): number {
    // An empty range (`{ $gt: 10, $lt: 2 }`) counts nothing.
    const root = rootOf(this.tree);
    return Math.max(0, entriesBelow(root, high, compareIndexKeys) - entriesBelow(root, low, compareIndexKeys));
  }

  /** Every entry (a multikey record once per value). */
  get entries(): number {
    return this.tree.size;
  }
}

const slotOf = (key: IndexKey) => key[2] as Slot;

function sameValues(keys: readonly IndexKey[], values: readonly unknown[]): boolean {
  return keys.length === values.length && keys.every((key, at) => compareSortKeys(key[0], values[at]) === 0);
}
