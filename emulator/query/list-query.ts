import { invalidInput } from '../core/errors';
import { checkFieldPath } from '../core/json-guard';
import { compileFilter, valueAt, type RecordPredicate } from './engine';
import { projectFields } from './projection';
import { compareSortKeys, parseSort, sortKeyOf, sortRecords, type SortKey } from './sort';

/** List parameters of the entity API: `sort`, `limit`, `skip`, `fields`, `q` (a JSON filter). */
export interface ListQuery {
  filter: RecordPredicate;
  sort: SortKey[];
  limit: number;
  skip: number;
  fields: string[] | null;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 10_000;
const FIELD_PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

export function parseCount(name: string, raw: string | null, fallback: number, max: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw))
    throw invalidInput(`${name} must be a non-negative integer, received "${raw.slice(0, 40)}"`, `invalid_${name}`);
  const value = Number(raw);
  if (value > max) throw invalidInput(`${name} may be at most ${max}`, `invalid_${name}`);
  return value;
}

export function parseJsonParam(name: string, raw: string | null): unknown {
  if (raw === null || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw invalidInput(`The ${name} parameter is not valid JSON`, 'invalid_filter', (error as Error).message);
  }
}

export function parseFilterParam(raw: string | null): RecordPredicate {
  const parsed = parseJsonParam('q', raw);
  return parsed === undefined ? () => true : compileFilter(parsed);
}

export function parseFields(raw: string | null): string[] | null {
  if (raw === null || raw.trim() === '') return null;
  const fields = raw
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
  for (const field of fields) {
    if (!FIELD_PATH.test(field))
      throw invalidInput(`"${field.slice(0, 100)}" is not a valid field name`, 'invalid_fields');
    checkFieldPath(field, 'The field', 'invalid_fields');
  }
  return fields;
}

export function parseListQuery(params: URLSearchParams, defaultSort = '-created_date'): ListQuery {
  return {
    filter: parseFilterParam(params.get('q')),
    sort: parseSort(params.get('sort') || defaultSort),
    // limit=0 is what a client sends when it means "no limit given"; treat it as the default.
    limit: parseCount('limit', params.get('limit'), DEFAULT_LIMIT, MAX_LIMIT) || DEFAULT_LIMIT,
    skip: parseCount('skip', params.get('skip'), 0, Number.MAX_SAFE_INTEGER),
    fields: parseFields(params.get('fields')),
  };
}

/** Copies only the requested (possibly dotted) fields, with the engine's projection; `id` always comes along. */
export function project(
  records: readonly Record<string, unknown>[],
  fields: readonly string[] | null,
): Record<string, unknown>[] {
  if (!fields) return [...records];
  try {
    return projectFields(records, fields);
  } catch (error) {
    throw invalidInput(`The fields cannot be combined: ${(error as Error).message}`, 'invalid_fields');
  }
}

export function runListQuery<T extends Record<string, unknown>>(
  records: readonly T[],
  query: ListQuery,
): Record<string, unknown>[] {
  const matching = records.filter((record) => query.filter(record));
  const page = sortRecords(matching, query.sort, query.skip + query.limit).slice(query.skip);
  return project(page, query.fields);
}

/** A place in a list query's order: a record's sort keys (as sortKeyOf gives them) and its id. */
export interface ListPosition {
  keys: readonly unknown[];
  id: string;
}

/**
 * The records of a list query from a given place on, in its order and unprojected: the first
 * `take` records that match and sort after `after` (by the sort keys, then insertion order,
 * exactly as runListQuery orders them), or from the start when `after` is null. A live query's
 * window reads its next rows this way (realtime/live-query-window.ts). Null when a record ties
 * with `after` on every key and the record `after` names is not among `records`, so that which
 * comes first cannot be told.
 */
export function rankedAfter<T extends Record<string, unknown> & { id: string }>(
  records: readonly T[],
  query: Pick<ListQuery, 'filter' | 'sort'>,
  after: ListPosition | null,
  take: number,
): T[] | null {
  if (after === null)
    return sortRecords(
      records.filter((record) => query.filter(record)),
      query.sort,
      take,
    );
  const keys = query.sort;
  const anchorAt = records.findIndex((record) => record.id === after.id);
  let unknownTie = false;
  // Equal keys keep insertion order, reversed when the first key descends (sortRecords).
  const laterOnTie = (at: number) => {
    if (anchorAt < 0) unknownTie = true;
    return keys[0]?.descending ? at < anchorAt : at > anchorAt;
  };
  const comesAfter = (record: T, at: number): boolean => {
    for (let key = 0; key < keys.length; key += 1) {
      const { path, descending } = keys[key] as SortKey;
      const diff = compareSortKeys(sortKeyOf(valueAt(record, path), descending), after.keys[key]);
      if (diff !== 0) return descending ? diff < 0 : diff > 0;
    }
    return laterOnTie(at);
  };
  const later = records.filter((record, at) => at !== anchorAt && query.filter(record) && comesAfter(record, at));
  return unknownTie ? null : sortRecords(later, keys, take);
}
