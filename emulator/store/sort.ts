import { badRequest } from '../http/errors';
import { compareValues, runPipeline, valueAt } from '../query/engine';
import { checkFieldPath } from './json-guard';

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
      if (!FIELD_PATH.test(path)) throw badRequest(`"${part.slice(0, 100)}" is not a valid sort field`, 'invalid_sort');
      return { path: checkFieldPath(path, 'The sort field', 'invalid_sort'), descending };
    });
  if (keys.length === 0) throw badRequest('sort needs at least one field', 'invalid_sort');
  return keys;
}

interface SortEntry<T> {
  record: T;
  values: unknown[];
  index: number;
}

function comparatorFor<T>(keys: readonly SortKey[]): (left: SortEntry<T>, right: SortEntry<T>) => number {
  return (left, right) => {
    for (let at = 0; at < keys.length; at += 1) {
      const diff = compareValues(left.values[at], right.values[at]);
      if (diff !== 0) return (keys[at] as SortKey).descending ? -diff : diff;
    }
    return left.index - right.index;
  };
}

/** Keeps only the first `take` entries in order: O(n log take) instead of sorting everything. */
function selectFirst<T>(
  entries: SortEntry<T>[],
  take: number,
  compare: (left: SortEntry<T>, right: SortEntry<T>) => number,
): SortEntry<T>[] {
  const kept: SortEntry<T>[] = [];
  for (const entry of entries) {
    if (kept.length === take && compare(entry, kept[take - 1] as SortEntry<T>) >= 0) continue;
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
  return kept;
}

const isScalar = (value: unknown) =>
  value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean';

/**
 * Returns a new array with the first `take` records in order (all when omitted). `records` is
 * expected in insertion order. Scalar keys (the common case) take a fast path whose comparison
 * is the engine's; keys holding arrays or objects go through the engine's own `$sort`, because
 * MongoDB orders an array by its smallest (or largest) element, which no plain comparator can do.
 */
export function sortRecords<T extends Record<string, unknown>>(
  records: readonly T[],
  keys: readonly SortKey[],
  take = Infinity,
): T[] {
  const ordered = keys[0]?.descending ? [...records].reverse() : records;
  const entries = ordered.map((record, index) => ({
    record,
    index,
    values: keys.map((key) => valueAt(record, key.path) ?? null),
  }));
  if (!entries.every((entry) => entry.values.every(isScalar))) {
    const spec: Record<string, 1 | -1> = {};
    for (const key of keys) spec[key.path] = key.descending ? -1 : 1;
    return (runPipeline(ordered, [{ $sort: spec }]) as T[]).slice(0, take);
  }
  const compare = comparatorFor<T>(keys);
  const sorted = take < entries.length / 4 ? selectFirst(entries, take, compare) : entries.sort(compare);
  return sorted.slice(0, Math.min(take, sorted.length)).map((entry) => entry.record);
}
