import { badRequest } from '../http/errors';
import { compileFilter, readPath, type RecordPredicate } from './filter';
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

function parseCount(name: string, raw: string | null, fallback: number, max: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw badRequest(`${name} must be a non-negative integer, received "${raw.slice(0, 40)}"`, `invalid_${name}`);
  const value = Number(raw);
  if (value > max) throw badRequest(`${name} may be at most ${max}`, `invalid_${name}`);
  return value;
}

export function parseFilterParam(raw: string | null): RecordPredicate {
  if (raw === null || raw.trim() === '') return () => true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw) as unknown;
  } catch (error) {
    throw badRequest('The q parameter is not valid JSON', 'invalid_filter', (error as Error).message);
  }
  return compileFilter(parsed);
}

export function parseListQuery(params: URLSearchParams, defaultSort = '-created_date'): ListQuery {
  const fieldsRaw = params.get('fields');
  let fields: string[] | null = null;
  if (fieldsRaw !== null && fieldsRaw.trim() !== '') {
    fields = fieldsRaw
      .split(',')
      .map((field) => field.trim())
      .filter((field) => field.length > 0);
    const invalid = fields.find((field) => !FIELD_PATH.test(field));
    if (invalid !== undefined) throw badRequest(`"${invalid}" is not a valid field name`, 'invalid_fields');
  }
  return {
    filter: parseFilterParam(params.get('q')),
    sort: parseSort(params.get('sort') || defaultSort),
    // limit=0 is what a client sends when it means "no limit given"; treat it as the default.
    limit: parseCount('limit', params.get('limit'), DEFAULT_LIMIT, MAX_LIMIT) || DEFAULT_LIMIT,
    skip: parseCount('skip', params.get('skip'), 0, Number.MAX_SAFE_INTEGER),
    fields,
  };
}

/** Copies only the requested (possibly dotted) fields; `id` always comes along so results stay addressable. */
export function project(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = { id: record.id };
  for (const field of fields) {
    const value = readPath(record, field);
    if (value === undefined) continue;
    const parts = field.split('.');
    let target = result;
    parts.slice(0, -1).forEach((part) => {
      const next = target[part];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) target[part] = {};
      target = target[part] as Record<string, unknown>;
    });
    target[parts[parts.length - 1] as string] = value;
  }
  return result;
}

export function runListQuery<T extends Record<string, unknown>>(records: readonly T[], query: ListQuery): Record<string, unknown>[] {
  const matching = records.filter((record) => query.filter(record));
  const page = sortRecords(matching, query.sort).slice(query.skip, query.skip + query.limit);
  return query.fields ? page.map((record) => project(record, query.fields as string[])) : page;
}
