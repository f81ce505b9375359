import { invalidInput } from '../core/errors';
import { checkFieldPath } from '../core/json-guard';
import { valueAt } from './engine';

/**
 * `sort` = comma-joined field paths, a leading `-` meaning descending (the platform's default is
 * `-created_date`). Values are ordered as the query engine orders them (MongoDB's order of mixed
 * types; a missing field sorts as null). Records with equal keys keep insertion order, reversed when the first key descends, so
 * "newest first" stays true for records created within the same millisecond.
 */

export interface SortKey {
  path: string;
  descending: boolean;
}

const FIELD_PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

export function parseSort(spec: string): SortKey[] {
  const keys = spec
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const descending = part.startsWith('-');
      const path = descending || part.startsWith('+') ? part.slice(1) : part;
      if (!FIELD_PATH.test(path))
        throw invalidInput(`"${part.slice(0, 100)}" is not a valid sort field`, 'invalid_sort');
      return { path: checkFieldPath(path, 'The sort field', 'invalid_sort'), descending };
    });
  if (keys.length === 0) throw invalidInput('sort needs at least one field', 'invalid_sort');
  return keys;
}

interface SortEntry<T> {
  record: T;
  values: unknown[];
  index: number;
}

/** BSON's order of types, for the types JSON can hold ("Comparison/Sort Order"). */
function typeRank(value: unknown): number {
  // An empty array as a sort key (sortKeyOf): MongoDB orders it before null and missing fields.
  if (Array.isArray(value) && value.length === 0) return 0;
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'object') return 4;
  return 6; // boolean
}

/**
 * MongoDB's comparison of two sort keys: by type first, then by value; documents field by field
 * in stored order, arrays element by element. (mingo's `compare` ranks an array against a scalar by
 * its elements, which BSON does not.)
 */
export function compareSortKeys(left: unknown, right: unknown): number {
  // Two numbers or two strings, the common case, first.
  if (typeof left === typeof right && (typeof left === 'number' || typeof left === 'string')) {
    return (left as number) < (right as number) ? -1 : (left as number) > (right as number) ? 1 : 0;
  }
  const rankDiff = typeRank(left) - typeRank(right);
  if (rankDiff !== 0) return Math.sign(rankDiff);
  if (typeof left === 'number' || typeof left === 'string' || typeof left === 'boolean') {
    return left === right ? 0 : (left as number) < (right as number) ? -1 : 1;
  }
  if (Array.isArray(left) && Array.isArray(right)) return compareSequences(left, right);
  if (typeof left === 'object' && left !== null && typeof right === 'object' && right !== null) {
    const leftEntries = Object.entries(left).flat();
    const rightEntries = Object.entries(right).flat();
    return compareSequences(leftEntries, rightEntries);
  }
  return 0;
}

function compareSequences(left: readonly unknown[], right: readonly unknown[]): number {
  for (let at = 0; at < Math.min(left.length, right.length); at += 1) {
    const diff = compareSortKeys(left[at], right[at]);
    if (diff !== 0) return diff;
  }
  return Math.sign(left.length - right.length);
}

/**
 * The value a record sorts by, as MongoDB defines it ("Comparison/Sort Order: Arrays"): an array
 * sorts by its smallest element ascending and by its largest element descending; a missing field
 * sorts as null.
 */
export function sortKeyOf(value: unknown, descending: boolean): unknown {
  // An empty array is its own key (JSON-safe: keys travel in cursor tokens); typeRank puts it first.
  if (!Array.isArray(value) || value.length === 0) return value ?? null;
  let chosen: unknown = value[0] ?? null;
  for (const element of value) {
    const diff = compareSortKeys(element ?? null, chosen);
    if (descending ? diff > 0 : diff < 0) chosen = element ?? null;
  }
  return chosen;
}

function comparatorFor<T>(keys: readonly SortKey[]): (left: SortEntry<T>, right: SortEntry<T>) => number {
  return (left, right) => {
    for (let at = 0; at < keys.length; at += 1) {
      const diff = compareSortKeys(left.values[at], right.values[at]);
      if (diff !== 0) return (keys[at] as SortKey).descending ? -diff : diff;
    }
    return left.index - right.index;
  };
}

/** Inserts `entry` into `kept` (sorted), keeping at most `take` entries. */
function keepSorted<T>(
  kept: SortEntry<T>[],
  entry: SortEntry<T>,
  take: number,
  compare: (left: SortEntry<T>, right: SortEntry<T>) => number,
): void {
  let low = 0;
  let high = kept.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compare(kept[middle] as SortEntry<T>, entry) <= 0) low = middle + 1;
    else high = middle;
  }
  kept.splice(low, 0, entry);
  if (kept.length > take) kept.pop();
}

/**
 * Returns a new array with the first `take` records in order (all when omitted). `records` is
 * expected in insertion order; equal keys keep it, reversed when the first key descends. Keys are
 * compared in MongoDB's order (sortKeyOf, compareSortKeys).
 */
export function sortRecords<T extends Record<string, unknown>>(
  records: readonly T[],
  keys: readonly SortKey[],
  take = Infinity,
): T[] {
  if (take <= 0) return [];
  const count = records.length;
  const reversed = keys[0]?.descending ?? false;
  const entryAt = (at: number): SortEntry<T> => {
    const record = records[at] as T;
    return {
      record,
      index: reversed ? count - 1 - at : at,
      values: keys.map((key) => sortKeyOf(valueAt(record, key.path), key.descending)),
    };
  };
  const compare = comparatorFor<T>(keys);
  if (take >= count / 4) {
    const entries = Array.from({ length: count }, (_, at) => entryAt(reversed ? count - 1 - at : at));
    return entries
      .sort(compare)
      .slice(0, Math.min(take, count))
      .map((entry) => entry.record);
  }
  // A short page: one pass that keeps the best `take` (O(n log take)); a record whose first key
  // cannot beat the last kept one is skipped before its entry is built.
  const kept: SortEntry<T>[] = [];
  const first = keys[0] as SortKey;
  for (let at = 0; at < count; at += 1) {
    if (kept.length === take) {
      const worst = kept[take - 1] as SortEntry<T>;
      const key = sortKeyOf(valueAt(records[at] as T, first.path), first.descending);
      const diff = compareSortKeys(key, worst.values[0]);
      if ((first.descending ? -diff : diff) > 0) continue;
    }
    const entry = entryAt(at);
    if (kept.length < take || compare(entry, kept[take - 1] as SortEntry<T>) < 0)
      keepSorted(kept, entry, take, compare);
  }
  return kept.map((entry) => entry.record);
}
