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

/** Does `position` come after `after` in the order of `keys` (or tie with it on every key, when `orTie`)? */
function comesAfter(
  position: readonly unknown[],
  after: readonly unknown[],
  keys: readonly SortKey[],
  orTie: boolean,
): boolean {
  for (let at = 0; at < keys.length; at += 1) {
    const diff = compareSortKeys(position[at] ?? null, after[at] ?? null);
    if (diff !== 0) return (keys[at] as SortKey).descending ? diff < 0 : diff > 0;
  }
  return orTie;
}

/**
 * `filter` narrowed to the records after `after` in the walk's order (`orTie`: and those tying
 * with it on every key). It keeps the filter's criteria: the records it matches are a subset of
 * the filter's, so an index may still serve it.
 */
export function filterAfter(
  filter: RecordPredicate,
  keys: readonly SortKey[],
  after: readonly unknown[] | null,
  orTie = false,
): RecordPredicate {
  if (after === null) return filter;
  const narrowed = (record: AnyRecord) => filter(record) && comesAfter(positionOf(record, keys), after, keys, orTie);
  return 'criteria' in filter ? Object.assign(narrowed, { criteria: filter.criteria }) : narrowed;
}

/** A place in a list query's order: a record's sort keys (as sortKeyOf gives them) and its id. */
export interface ListPosition {
  keys: readonly unknown[];
  id: string;
}

/**
 * The first `take` matches of `filter` in a list's order (the sort keys, then insertion order,
 * reversed when the first key descends: sortRecords); `start`, when given, is a value of the first
 * sort key before which no match sorts, where an index walk may begin (records/reads.ts).
 */
export type OrderedRead<T> = (filter: RecordPredicate, take: number, start?: unknown) => T[];

/** How many of `rows` come first tying with `keys` on every sort key. */
function leadingTies(rows: readonly AnyRecord[], keys: readonly unknown[], sort: readonly SortKey[]): number {
  let ties = 0;
  while (ties < rows.length && !comesAfter(positionOf(rows[ties] as AnyRecord, sort), keys, sort, false)) ties += 1;
  return ties;
}

/**
 * The records of a list query from a given place on, in its order and unprojected: the first
 * `take` matches that sort after `after` (the place of a record that held `after.keys`; from the
 * start when null). A live query's window reads its next rows this way
 * (realtime/live-query-window.ts), through `read`, so an index serves it as it serves the list.
 *
 * Records tying with `after` on every key are ordered by insertion, which no filter can see: they
 * are read with the records after them, and those behind `after.id` among them are kept. Null when
 * such ties exist but `after.id` no longer matches with those keys, so its place cannot be told.
 */
export function rankedAfter<T extends AnyRecord & { id: string }>(
  read: OrderedRead<T>,
  query: { filter: RecordPredicate; sort: readonly SortKey[] },
  after: ListPosition | null,
  take: number,
): T[] | null {
  if (after === null) return read(query.filter, take);
  const fromPlace = filterAfter(query.filter, query.sort, after.keys, true);
  // The place itself and the next `take`; more when rows tying with it come before it.
  let ask = take + 1;
  for (;;) {
    const rows = read(fromPlace, ask, after.keys[0]);
    const exhausted = rows.length < ask;
    const placeAt = rows.findIndex((row) => row.id === after.id);
    if (placeAt >= 0) {
      const later = rows.slice(placeAt + 1, placeAt + 1 + take);
      if (later.length === take || exhausted) return later;
      ask = placeAt + 1 + take;
      continue;
    }
    const ties = leadingTies(rows, after.keys, query.sort);
    if (ties === 0) return rows.slice(0, take);
    if (ties < rows.length || exhausted) return null;
    ask *= 2;
  }
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
