import { invalidInput } from '../core/errors';
import { checkFieldPath } from '../core/json-guard';
import { compileFilter, MATCH_ALL, type RecordPredicate } from './engine';
import { projectFields } from './projection';
import { parseSort, sortRecords, type SortKey } from './sort';

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
  return parsed === undefined ? MATCH_ALL : compileFilter(parsed);
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
