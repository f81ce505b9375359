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

/** Does `position` come after `after` in the order of `keys`? A tie on every key is `onTie`'s to decide. */
function comesAfter(
  position: readonly unknown[],
  after: readonly unknown[],
  keys: readonly SortKey[],
  onTie: () => boolean,
): boolean {
  for (let at = 0; at < keys.length; at += 1) {
    const diff = compareSortKeys(position[at] ?? null, after[at] ?? null);
    if (diff !== 0) return (keys[at] as SortKey).descending ? diff < 0 : diff > 0;
  }
  return onTie();
}

/**
 * `filter` narrowed to the records after `after` in the walk's order (of those tying with it on
 * every key, the ones `laterOnTie` names). It keeps the filter's criteria: the records it matches
 * are a subset of the filter's, so an index may still serve it.
 */
export function filterAfter(
  filter: RecordPredicate,
  keys: readonly SortKey[],
  after: readonly unknown[] | null,
  laterOnTie: (record: AnyRecord) => boolean = () => false,
): RecordPredicate {
  if (after === null) return filter;
  const narrowed = (record: AnyRecord) =>
    filter(record) && comesAfter(positionOf(record, keys), after, keys, () => laterOnTie(record));
  return 'criteria' in filter ? Object.assign(narrowed, { criteria: filter.criteria }) : narrowed;
}

/** A place in a list query's order: a record's sort keys (as sortKeyOf gives them) and its id. */
export interface ListPosition {
  keys: readonly unknown[];
  id: string;
}

/** Where records stand in the store's insertion order; undefined for a record no longer stored. */
export type InsertionOrder = (id: string) => number | undefined;

const positionsByList = new WeakMap<readonly { id: string }[], Map<string, number>>();

/**
 * The insertion order of a stored list (the store hands out a new list after every change, so a
 * list's positions never go stale): built once per list, on the first tie that needs it.
 */
export function insertionOrderOf(list: () => readonly { id: string }[]): InsertionOrder {
  return (id) => {
    const records = list();
    let positions = positionsByList.get(records);
    if (!positions) {
      positions = new Map();
      for (let at = 0; at < records.length; at += 1) positions.set((records[at] as { id: string }).id, at);
      positionsByList.set(records, positions);
    }
    return positions.get(id);
  };
}

/**
 * The first `take` matches of `filter` in a list's order (the sort keys, then insertion order,
 * reversed when the first key descends: sortRecords); `start`, when given, is a value of the first
 * sort key before which no match sorts, where an index walk may begin (records/reads.ts).
 */
export type OrderedRead<T> = (filter: RecordPredicate, take: number, start?: unknown) => T[];

/**
 * The records of a list query from a given place on, in its order and unprojected: the first
 * `take` matches that sort after `after` (the place of the record `after.id` when it held
 * `after.keys`; from the start when null), by one `read`, so an index serves it as it serves the
 * list. A live query's window reads its next rows this way (realtime/live-query-window.ts). Rows
 * tying with the place on every key are told apart by `order`, asked only on such a tie. Null when
 * a match ties with it and `after.id` is no longer stored, so which of the two comes first cannot
 * be told.
 */
export function rankedAfter<T extends AnyRecord & { id: string }>(
  read: OrderedRead<T>,
  query: { filter: RecordPredicate; sort: readonly SortKey[] },
  after: ListPosition | null,
  take: number,
  order: InsertionOrder,
): T[] | null {
  if (after === null) return read(query.filter, take);
  let unknownTie = false;
  const descending = query.sort[0]?.descending ?? false;
  // Equal keys keep insertion order, reversed when the first key descends (sortRecords); the
  // record at the place itself is not after it.
  const laterOnTie = (record: AnyRecord) => {
    if (record.id === after.id) return false;
    const placeAt = order(after.id);
    const at = order(record.id as string);
    if (placeAt === undefined || at === undefined) unknownTie = true;
    else return descending ? at < placeAt : at > placeAt;
    return false;
  };
  const rows = read(filterAfter(query.filter, query.sort, after.keys, laterOnTie), take, after.keys[0]);
  return unknownTie ? null : rows;
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
