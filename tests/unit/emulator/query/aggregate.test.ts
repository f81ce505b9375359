/**
 * @jest-environment node
 *
 * `aggregate(spec)` (query/aggregate.ts): the date buckets (UTC, weeks from Monday), grouping and
 * measures on the engine's `$group`, `having`, sort and limit, and a clear 400 for a bad spec.
 */
import { bucketOf, runAggregate, type BucketUnit } from '@/emulator/query/aggregate';

import { failureOf } from '../emulator-kit';

describe('bucketOf', () => {
  it.each<[unknown, BucketUnit, string | null]>([
    ['2026-11-25T10:00:00.000Z', 'day', '2026-11-25'],
    ['2026-11-25T23:59:59.999Z', 'day', '2026-11-25'],
    ['2026-11-25T23:30:00-02:00', 'day', '2026-11-26'],
    ['2026-11-25T10:00:00.000Z', 'week', '2026-11-23'],
    ['2026-11-23T00:00:00.000Z', 'week', '2026-11-23'],
    ['2026-11-29T23:59:59.000Z', 'week', '2026-11-23'],
    ['2026-01-01T12:00:00.000Z', 'week', '2025-12-29'],
    ['2026-11-25T10:00:00.000Z', 'month', '2026-11-01'],
    ['2026-11-25T10:00:00.000Z', 'year', '2026-01-01'],
    ['2026-11-25', 'day', '2026-11-25'],
    [Date.UTC(2024, 1, 29, 8), 'month', '2024-02-01'],
    [0, 'day', '1970-01-01'],
    ['not a date', 'day', null],
    [null, 'day', null],
    [true, 'year', null],
    [['2026-11-25'], 'day', null],
  ])('%p by %s: %p', (value, unit, bucket) => {
    expect(bucketOf(value, unit)).toBe(bucket);
  });
});

describe('runAggregate', () => {
  const ORDERS = [
    { id: '1', team: 'red', total: 10, created_date: '2026-11-23T09:00:00.000Z', buyer: 'a' },
    { id: '2', team: 'red', total: 30, created_date: '2026-11-25T09:00:00.000Z', buyer: 'b' },
    { id: '3', team: 'blue', total: 5, created_date: '2026-11-30T09:00:00.000Z', buyer: 'a' },
    { id: '4', team: 'blue', created_date: '2026-12-01T09:00:00.000Z', buyer: null },
    { id: '5', total: 7, created_date: 'never' },
  ];

  it.each<[string, unknown, unknown]>([
    ['one total row by default', {}, [{ count: 5 }]],
    ['one total row over no records', { query: { team: 'green' }, sum: 'total' }, [{ count: 0, sum_total: 0 }]],
    [
      'groups in order of their key, a missing key as null',
      { groupBy: 'team', sum: 'total', countDistinct: 'buyer' },
      [
        { team: null, count: 1, sum_total: 7, count_distinct_buyer: 0 },
        { team: 'blue', count: 2, sum_total: 5, count_distinct_buyer: 1 },
        { team: 'red', count: 2, sum_total: 40, count_distinct_buyer: 2 },
      ],
    ],
    [
      'weekly buckets of created_date, without the count',
      { dateBucket: { field: 'created_date', unit: 'week' }, count: false, max: 'total' },
      [
        { created_date: null, max_total: 7 },
        { created_date: '2026-11-23', max_total: 30 },
        { created_date: '2026-11-30', max_total: 5 },
      ],
    ],
    [
      'a filter, having, a descending sort and a limit',
      {
        query: { total: { $gt: 0 } },
        groupBy: 'team',
        avg: 'total',
        having: { count: { $gte: 1 } },
        sort: '-avg_total',
        limit: 2,
      },
      [
        { team: 'red', count: 2, avg_total: 20 },
        { team: null, count: 1, avg_total: 7 },
      ],
    ],
  ])('%s', (_label, spec, rows) => {
    expect(runAggregate(ORDERS, spec).rows).toEqual(rows);
  });

  it('says when the limit cut rows off', () => {
    expect(runAggregate(ORDERS, { groupBy: 'id', limit: 4 }).truncated).toBe(true);
    expect(runAggregate(ORDERS, { groupBy: 'id', limit: 5 }).truncated).toBe(false);
  });

  it.each<[string, unknown, string, string?]>([
    ['no object', [], 'The aggregate spec must be a JSON object'],
    ['an unknown option', { groupby: 'team' }, 'Unknown aggregate option "groupby"'],
    ['count not boolean', { count: 1 }, 'count must be true or false'],
    ['countDistinct of a list', { countDistinct: ['a'] }, 'countDistinct must be one field name'],
    ['sort not a string', { sort: { total: -1 } }, 'sort must be a field name, "-" for descending'],
    ['having not an object', { having: 'x' }, 'having must be a filter object'],
    ['limit 0', { limit: 0 }, 'limit must be an integer from 1 to 1000'],
    ['limit 1001', { limit: 1001 }, 'limit must be an integer from 1 to 1000'],
    [
      'five group fields',
      { groupBy: ['a', 'b', 'c', 'd', 'e'] },
      'groupBy must be a field name or a list of at most 4 field names',
    ],
    [
      'a bucket unit',
      { dateBucket: { field: 'created_date', unit: 'hour' } },
      'dateBucket needs { field, unit } with unit day, week, month or year',
    ],
    [
      'weeks of an own field',
      { dateBucket: { field: 'due', unit: 'week' } },
      'Weekly buckets work on created_date and updated_date only',
    ],
    [
      'a reserved group field',
      { groupBy: '__proto__' },
      'The groupBy field "__proto__" is not allowed ("__proto__" is empty, an operator or a reserved name)',
    ],
    ['a bad query', { query: { $where: '1' } }, 'Unsupported top-level filter operator $where', 'invalid_filter'],
    ['a bad sort', { sort: 'a b' }, '"a b" is not a valid sort field', 'invalid_sort'],
  ])('refuses %s', (_label, spec, message, code = 'invalid_aggregate') => {
    expect(failureOf(() => runAggregate(ORDERS, spec))).toEqual({ kind: 'invalid', code, message });
  });
});
