import BTree from 'sorted-btree';

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

export const compareIndexKeys = (left: IndexKey, right: IndexKey): number =>
  compareSortKeys(left[0], right[0]) || left[1] - right[1];

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

/** One entry met by a walk or a lookup. */
export interface IndexEntry {
  value: unknown;
  seq: number;
  id: string;
}

export class FieldIndex {
  private readonly tree = new BTree<IndexKey, string>(undefined, compareIndexKeys);
  private readonly filed = new Map<string, IndexKey[]>();
  /** Records filed under more than one value (arrays of two or more distinct elements). */
  private multikeyRecords = 0;

  constructor(readonly field: string) {}

  get size(): number {
    return this.filed.size;
  }

  /** True when some record is filed under several values: a record may then appear more than once. */
  get multikey(): boolean {
    return this.multikeyRecords > 0;
  }

  add(id: string, seq: number, record: Record<string, unknown>): void {
    const keys = filedValues(record, this.field).map((value): IndexKey => [value, seq]);
    const previous = this.filed.get(id);
    if (previous && sameKeys(previous, keys)) return;
    if (previous) this.remove(id);
    for (const key of keys) this.tree.set(key, id);
    this.filed.set(id, keys);
    if (keys.length > 1) this.multikeyRecords += 1;
  }

  remove(id: string): void {
    const keys = this.filed.get(id);
    if (!keys) return;
    for (const key of keys) this.tree.delete(key);
    this.filed.delete(id);
    if (keys.length > 1) this.multikeyRecords -= 1;
  }

  /**
   * Entries from `start` (inclusive; the lowest value when undefined) upwards, or downwards when
   * `descending`, each record once (at its first appearance in that direction).
   */
  *walk(descending: boolean, start?: unknown): Generator<IndexEntry> {
    const seen = this.multikey ? new Set<number>() : null;
    const entries = descending
      ? this.tree.entriesReversed(start === undefined ? undefined : [start, Infinity])
      : this.tree.entries(start === undefined ? undefined : [start, -Infinity]);
    for (const [[value, seq], id] of entries) {
      if (seen) {
        if (seen.has(seq)) continue;
        seen.add(seq);
      }
      yield { value, seq, id };
    }
  }

  /** Entries whose value equals `value` (compareSortKeys), in insertion order. */
  *equal(value: unknown): Generator<IndexEntry> {
    for (const entry of this.walk(false, value)) {
      if (compareSortKeys(entry.value, value) !== 0) return;
      yield entry;
    }
  }

  /**
   * Entries of the values `accepts` takes, from `start` upwards while `within` holds (values of one
   * type, so the stretch ends where the type ends). A record may appear once per element here.
   */
  *stretch(start: unknown, within: (value: unknown) => boolean, accepts: (value: unknown) => boolean) {
    for (const [[value, seq], id] of this.tree.entries([start, -Infinity])) {
      if (!within(value)) return;
      if (accepts(value)) yield { value, seq, id } as IndexEntry;
    }
  }
}

function sameKeys(left: readonly IndexKey[], right: readonly IndexKey[]): boolean {
  return left.length === right.length && left.every((key, at) => compareIndexKeys(key, right[at] as IndexKey) === 0);
}
