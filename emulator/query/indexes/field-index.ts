import BTree from 'sorted-btree';
import { bulkLoad } from 'sorted-btree/extended/bulkLoad';

import type { EntityRecord } from '../../core/types';
import { valueAt } from '../engine';
import { compareSortKeys } from '../sort';

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

/** A position in the tree: the value, then the record's insertion sequence number. */
export type IndexKey = readonly [value: unknown, seq: number];

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

/**
 * One record as every index of its entity holds it: the value of each tree entry. An update
 * replaces `record` here, so an index whose keys did not change has nothing to do, and a read finds
 * the record without looking its id up.
 */
export interface Slot {
  readonly id: string;
  /** The record's place in insertion order. */
  readonly seq: number;
  record: EntityRecord;
}

/** Told of each entry met, in order; returning false stops the visit. */
export type EntryVisitor = (value: unknown, slot: Slot) => boolean | void;

const NODE_SIZE = 64;

export class FieldIndex {
  private tree = new BTree<IndexKey, Slot>(undefined, compareIndexKeys, NODE_SIZE);
  /** Each record's keys: one key for a single value (most records: no array per record), else a list. */
  private readonly filed = new Map<string, IndexKey | IndexKey[]>();
  /** Records filed under more than one value (arrays of two or more distinct elements). */
  private multikeyRecords = 0;

  constructor(readonly field: string) {}

  /** The index of `slots`, loaded in one sorted pass. */
  static build(field: string, slots: Iterable<Slot>): FieldIndex {
    const index = new FieldIndex(field);
    const entries: [IndexKey, Slot][] = [];
    for (const slot of slots) {
      const keys = index.keysOf(slot);
      index.file(slot.id, keys);
      for (const key of keys) entries.push([key, slot]);
    }
    entries.sort((left, right) => compareIndexKeys(left[0], right[0]));
    const keys = entries.map(([key]) => key);
    const values = entries.map(([, slot]) => slot);
    index.tree = bulkLoad(keys, values, NODE_SIZE, compareIndexKeys);
    return index;
  }

  /** How many records are filed (each once, whatever its number of values). */
  get size(): number {
    return this.filed.size;
  }

  /** True when some record is filed under several values: a record may then appear more than once. */
  get multikey(): boolean {
    return this.multikeyRecords > 0;
  }

  private keysOf(slot: Slot): IndexKey[] {
    return filedValues(slot.record, this.field).map((value): IndexKey => [value, slot.seq]);
  }

  private file(id: string, keys: IndexKey[]): void {
    this.filed.set(id, keys.length === 1 ? (keys[0] as IndexKey) : keys);
    if (keys.length > 1) this.multikeyRecords += 1;
  }

  private keysFiled(id: string): IndexKey[] | undefined {
    const filed = this.filed.get(id);
    if (filed === undefined) return undefined;
    return filed.length === 2 && typeof filed[1] === 'number' ? [filed as IndexKey] : (filed as IndexKey[]);
  }

  /** Files a new slot, or refiles an updated one whose values here changed. */
  add(slot: Slot): void {
    const keys = this.keysOf(slot);
    const previous = this.keysFiled(slot.id);
    if (previous && sameKeys(previous, keys)) return;
    if (previous) this.remove(slot.id);
    for (const key of keys) this.tree.set(key, slot);
    this.file(slot.id, keys);
  }

  remove(id: string): void {
    const keys = this.keysFiled(id);
    if (!keys) return;
    for (const key of keys) this.tree.delete(key);
    this.filed.delete(id);
    if (keys.length > 1) this.multikeyRecords -= 1;
  }

  /**
   * Visits the entries from `start` (inclusive; the lowest value when undefined) upwards, or
   * downwards when `descending`, until `visit` returns false. A multikey record comes once per value.
   */
  visit(descending: boolean, start: unknown, visit: EntryVisitor): void {
    const reused: unknown[] = [];
    const entries = descending
      ? this.tree.entriesReversed(start === undefined ? undefined : [start, Infinity], reused as never)
      : this.tree.entries(start === undefined ? undefined : [start, -Infinity], reused as never);
    for (const [[value], slot] of entries) if (visit(value, slot) === false) return;
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

  /** Visits the entries whose value equals `value` (compareSortKeys), in insertion order. */
  equal(value: unknown, visit: EntryVisitor): void {
    this.visit(false, value, (found, slot) => compareSortKeys(found, value) === 0 && visit(found, slot) !== false);
  }

  /**
   * Visits the entries of the values `accepts` takes, from `start` upwards while `within` holds
   * (values of one type, so the stretch ends where the type ends).
   */
  stretch(
    start: unknown,
    within: (value: unknown) => boolean,
    accepts: (value: unknown) => boolean,
    visit: EntryVisitor,
  ) {
    this.visit(false, start, (value, slot) => within(value) && (!accepts(value) || visit(value, slot) !== false));
  }

  /**
   * How many entries lie between `low` and `high`: counted inside and outside (from both ends) in
   * step, whichever side ends first gives the answer, so the cost is twice the smaller side.
   */
  countBetween(low: IndexKey, high: IndexKey): number {
    const inside = this.tree.entries(low);
    // The rest: below `low` (all of it), then above `high` (from the top down).
    const ends = [
      { entries: this.tree.entriesReversed(low), outside: (_key: IndexKey) => true },
      { entries: this.tree.entriesReversed(), outside: (key: IndexKey) => compareIndexKeys(key, high) > 0 },
    ];
    let insideCount = 0;
    let outsideCount = 0;
    for (;;) {
      const next = inside.next();
      if (next.done || compareIndexKeys(next.value[0], high) > 0) return insideCount;
      insideCount += 1;
      let end = ends[0];
      while (end) {
        const other = end.entries.next();
        if (!other.done && end.outside(other.value[0])) break;
        ends.shift();
        end = ends[0];
      }
      if (!end) return this.tree.size - outsideCount;
      outsideCount += 1;
    }
  }

  /** Every entry (a multikey record once per value). */
  get entries(): number {
    return this.tree.size;
  }
}

function sameKeys(left: readonly IndexKey[], right: readonly IndexKey[]): boolean {
  return left.length === right.length && left.every((key, at) => compareIndexKeys(key, right[at] as IndexKey) === 0);
}
