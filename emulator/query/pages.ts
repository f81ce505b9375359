import { valueAt, type RecordPredicate } from './engine';
import { project } from './list-query';
import { compareSortKeys, sortKeyOf, type SortKey } from './sort';

/**
 * Keyset pages: the order is the sort keys plus `id` (unique), so every record has one position
 * and "after the last item served" stays well defined while records come and go between pages.
 */

type AnyRecord = Record<string, unknown>;

export interface Page<T> {
  items: T[];
  /** Position of the last item, for the next cursor; null on the last page. */
  last: unknown[] | null;
  has_more: boolean;
}

/** The sort keys of a walk, with `id` as the final tie-breaker in the first key's direction. */
export function walkKeys(keys: readonly SortKey[]): SortKey[] {
  return [...keys.filter((key) => key.path !== 'id'), { path: 'id', descending: keys[0]?.descending ?? false }];
}

/** A record's position: its sort keys exactly as sortRecords orders them, so pages follow the sort. */
function positionOf(record: AnyRecord, keys: readonly SortKey[]): unknown[] {
  return keys.map((key) => sortKeyOf(valueAt(record, key.path), key.descending));
}

function comesAfter(position: readonly unknown[], after: readonly unknown[], keys: readonly SortKey[]): boolean {
  for (let at = 0; at < keys.length; at += 1) {
    const diff = compareSortKeys(position[at] ?? null, after[at] ?? null);
    if (diff !== 0) return (keys[at] as SortKey).descending ? diff < 0 : diff > 0;
  }
  return false;
}

/**
 * `filter` narrowed to the records after `after` in the walk's order. It keeps the filter's
 * criteria: the records it matches are a subset of the filter's, so an index may still serve it.
 */
export function filterAfter(
  filter: RecordPredicate,
  keys: readonly SortKey[],
  after: readonly unknown[] | null,
): RecordPredicate {
  if (after === null) return filter;
  const narrowed = (record: AnyRecord) => filter(record) && comesAfter(positionOf(record, keys), after, keys);
  return 'criteria' in filter ? Object.assign(narrowed, { criteria: filter.criteria }) : narrowed;
}

/** A page from the first `limit + 1` matches after the cursor, in order (one more tells whether more follow). */
export function pageOf(
  sorted: readonly AnyRecord[],
  options: { keys: readonly SortKey[]; fields: readonly string[] | null; limit: number },
): Page<AnyRecord> {
  const page = sorted.slice(0, options.limit);
  const hasMore = sorted.length > options.limit;
  const lastRecord = page[page.length - 1];
  return {
    items: project(page, options.fields),
    last: hasMore && lastRecord ? positionOf(lastRecord, options.keys) : null,
    has_more: hasMore,
  };
}

/** Distinct values of one field in ascending order; an array field contributes each element. */
export function distinctPage(
  records: readonly AnyRecord[],
  options: { filter: RecordPredicate; field: string; limit: number; after: readonly unknown[] | null },
): Page<unknown> {
  const seen = new Map<string, unknown>();
  const add = (value: unknown) => {
    if (value !== undefined) seen.set(JSON.stringify(value), value);
  };
  for (const record of records) {
    if (!options.filter(record)) continue;
    const value = valueAt(record, options.field);
    if (Array.isArray(value)) value.forEach(add);
    else add(value);
  }
  const after = options.after;
  const values = [...seen.values()]
    .filter((value) => after === null || compareSortKeys(value, after[0] ?? null) > 0)
    .sort(compareSortKeys);
  const page = values.slice(0, options.limit);
  const hasMore = values.length > options.limit;
  return { items: page, last: hasMore ? [page[page.length - 1]] : null, has_more: hasMore };
}
