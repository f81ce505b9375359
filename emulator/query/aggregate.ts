import { invalidInput } from '../core/errors';
import { checkFieldPath, isJsonObject } from '../core/json-guard';
import { compileFilter, runPipeline, type RecordPredicate } from './engine';
import { parseSort, sortRecords, type SortKey } from './sort';

/**
 * `aggregate(spec)` of @base44/sdk 0.8.50: filter, group by up to four fields and/or a date
 * bucket, compute count / sum / avg / min / max / countDistinct, keep groups matching `having`,
 * sort, limit. Grouping and the measures run on the query engine's `$group`.
 */

type AnyRecord = Record<string, unknown>;
export type BucketUnit = 'day' | 'week' | 'month' | 'year';

interface AggregateSpec {
  filter: RecordPredicate;
  groupBy: string[];
  bucket: { field: string; unit: BucketUnit } | null;
  count: boolean;
  measures: { name: string; accumulator: '$sum' | '$avg' | '$min' | '$max'; field: string }[];
  countDistinct: string | null;
  having: RecordPredicate | null;
  sort: SortKey[] | null;
  limit: number;
}

const KNOWN_KEYS = new Set([
  'query',
  'groupBy',
  'dateBucket',
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'countDistinct',
  'having',
  'sort',
  'limit',
]);
const MEASURES = [
  ['sum', '$sum'],
  ['avg', '$avg'],
  ['min', '$min'],
  ['max', '$max'],
] as const;
const UNITS = new Set<BucketUnit>(['day', 'week', 'month', 'year']);
const SYSTEM_DATES = new Set(['created_date', 'updated_date']);
const MAX_GROUP_FIELDS = 4;
const MAX_ROWS = 1000;

const invalid = (message: string) => invalidInput(message, 'invalid_aggregate');

function fieldList(value: unknown, name: string, max = 50): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > max || !list.every((field): field is string => typeof field === 'string')) {
    throw invalid(`${name} must be a field name or a list of at most ${max} field names`);
  }
  return list.map((field) => checkFieldPath(field, `The ${name} field`, 'invalid_aggregate'));
}

function parseBucket(value: unknown): AggregateSpec['bucket'] {
  if (value === undefined) return null;
  if (!isJsonObject(value) || typeof value.field !== 'string' || !UNITS.has(value.unit as BucketUnit)) {
    throw invalid('dateBucket needs { field, unit } with unit day, week, month or year');
  }
  const field = checkFieldPath(value.field, 'The dateBucket field', 'invalid_aggregate');
  if (value.unit === 'week' && !SYSTEM_DATES.has(field))
    throw invalid('Weekly buckets work on created_date and updated_date only');
  return { field, unit: value.unit as BucketUnit };
}

function parseSpec(value: unknown): AggregateSpec {
  if (!isJsonObject(value)) throw invalid('The aggregate spec must be a JSON object');
  const unknown = Object.keys(value).find((key) => !KNOWN_KEYS.has(key));
  if (unknown !== undefined) throw invalid(`Unknown aggregate option "${unknown.slice(0, 40)}"`);
  if (value.count !== undefined && typeof value.count !== 'boolean') throw invalid('count must be true or false');
  if (value.countDistinct !== undefined && typeof value.countDistinct !== 'string')
    throw invalid('countDistinct must be one field name');
  if (value.sort !== undefined && typeof value.sort !== 'string')
    throw invalid('sort must be a field name, "-" for descending');
  if (value.having !== undefined && !isJsonObject(value.having)) throw invalid('having must be a filter object');
  const limit = value.limit ?? MAX_ROWS;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_ROWS)
    throw invalid(`limit must be an integer from 1 to ${MAX_ROWS}`);
  return {
    filter: value.query === undefined || value.query === null ? () => true : compileFilter(value.query),
    groupBy: fieldList(value.groupBy, 'groupBy', MAX_GROUP_FIELDS),
    bucket: parseBucket(value.dateBucket),
    count: value.count !== false,
    measures: MEASURES.flatMap(([name, accumulator]) =>
      fieldList(value[name], name).map((field) => ({ name: `${name}_${field}`, accumulator, field })),
    ),
    countDistinct:
      value.countDistinct === undefined ? null : (fieldList(value.countDistinct, 'countDistinct', 1)[0] ?? null),
    having: value.having === undefined ? null : compileFilter(value.having),
    sort: value.sort === undefined ? null : parseSort(value.sort),
    limit,
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The first day of the bucket as `YYYY-MM-DD` (UTC; weeks start on Monday), or null for a non-date. */
export function bucketOf(value: unknown, unit: BucketUnit): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  if (unit === 'week') date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  const year = date.getUTCFullYear();
  const month = unit === 'year' ? 1 : date.getUTCMonth() + 1;
  const day = unit === 'year' || unit === 'month' ? 1 : date.getUTCDate();
  return `${year}-${pad(month)}-${pad(day)}`;
}

function groupStage(spec: AggregateSpec): AnyRecord {
  const id: AnyRecord = {};
  spec.groupBy.forEach((field, index) => {
    id[`g${index}`] = `$r.${field}`;
  });
  if (spec.bucket) id.bucket = '$bucket';
  const group: AnyRecord = { _id: id, count: { $sum: 1 } };
  spec.measures.forEach((measure, index) => {
    group[`m${index}`] = { [measure.accumulator]: `$r.${measure.field}` };
  });
  if (spec.countDistinct) group.distinct = { $addToSet: `$r.${spec.countDistinct}` };
  return { $group: group };
}

function toRow(spec: AggregateSpec, group: AnyRecord): AnyRecord {
  const id = (group._id ?? {}) as AnyRecord;
  const row: AnyRecord = {};
  spec.groupBy.forEach((field, index) => {
    row[field] = id[`g${index}`] ?? null;
  });
  if (spec.bucket) row[spec.bucket.field] = id.bucket ?? null;
  if (spec.count) row.count = group.count ?? 0;
  spec.measures.forEach((measure, index) => {
    row[measure.name] = group[`m${index}`] ?? (measure.accumulator === '$sum' ? 0 : null);
  });
  if (spec.countDistinct) {
    const values = (group.distinct ?? []) as unknown[];
    row[`count_distinct_${spec.countDistinct}`] = values.filter(
      (value) => value !== null && value !== undefined,
    ).length;
  }
  return row;
}

export function runAggregate(
  records: readonly AnyRecord[],
  rawSpec: unknown,
): { rows: AnyRecord[]; truncated: boolean } {
  const spec = parseSpec(rawSpec);
  const bucket = spec.bucket;
  const documents = records
    .filter((record) => spec.filter(record))
    .map((record) => ({ r: record, bucket: bucket ? bucketOf(record[bucket.field], bucket.unit) : null }));
  const grouped = runPipeline(documents, [groupStage(spec)]);
  // Without grouping there is always one total row, even over no records.
  const groups = grouped.length === 0 && spec.groupBy.length === 0 && !bucket ? [{ _id: {}, count: 0 }] : grouped;
  let rows = groups.map((group) => toRow(spec, group));
  if (spec.having) rows = rows.filter(spec.having);
  const defaultSort = [...spec.groupBy, ...(bucket ? [bucket.field] : [])].map((path) => ({ path, descending: false }));
  const keys = spec.sort ?? defaultSort;
  if (keys.length > 0) {
    // Row keys are flat ("meta.city"), so sort on copies of the values rather than on paths.
    const wrapped = rows.map((row) => ({
      row,
      values: keys.map((key) => (Object.hasOwn(row, key.path) ? row[key.path] : undefined)),
    }));
    const byValue = keys.map((key, index) => ({ path: `values.${index}`, descending: key.descending }));
    rows = sortRecords(wrapped, byValue).map((entry) => entry.row);
  }
  return { rows: rows.slice(0, spec.limit), truncated: rows.length > spec.limit };
}
