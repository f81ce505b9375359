/**
 * @jest-environment node
 *
 * The list parameters of the entity API (query/list-query.ts): `limit`, `skip`, `q`, `sort`,
 * `fields`, their defaults, the error code of each bad value, and a list query run end to end.
 */
import { MATCH_ALL } from '@/emulator/query/engine';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  parseCount,
  parseFields,
  parseFilterParam,
  parseJsonParam,
  parseListQuery,
  project,
  runListQuery,
} from '@/emulator/query/list-query';

import { codeOf, failureOf } from '../emulator-kit';

describe('parseCount', () => {
  it.each<[string | null, number]>([
    [null, 7],
    ['', 7],
    ['0', 0],
    ['25', 25],
    ['0010', 10],
    ['100', 100],
  ])('%p gives %p', (raw, value) => {
    expect(parseCount('limit', raw, 7, 100)).toBe(value);
  });

  it.each<[string, string, string]>([
    ['limit', '-1', 'limit must be a non-negative integer, received "-1"'],
    ['limit', '2.5', 'limit must be a non-negative integer, received "2.5"'],
    ['limit', 'ten', 'limit must be a non-negative integer, received "ten"'],
    ['limit', ' 5', 'limit must be a non-negative integer, received " 5"'],
    ['skip', '1e3', 'skip must be a non-negative integer, received "1e3"'],
    ['limit', '101', 'limit may be at most 100'],
  ])('%s=%p is a 400 invalid_%s', (name, raw, message) => {
    expect(failureOf(() => parseCount(name, raw, 0, 100))).toEqual({
      kind: 'invalid',
      code: `invalid_${name}`,
      message,
    });
  });
});

describe('parseJsonParam and parseFilterParam', () => {
  it.each<[string | null, unknown]>([
    [null, undefined],
    ['  ', undefined],
    ['{"a":1}', { a: 1 }],
    ['null', null],
  ])('%p parses to %p', (raw, value) => {
    expect(parseJsonParam('q', raw)).toEqual(value);
  });

  it('refuses text that is no JSON, naming the parameter', () => {
    expect(failureOf(() => parseJsonParam('q', '{a:1}'))).toEqual({
      kind: 'invalid',
      code: 'invalid_filter',
      message: 'The q parameter is not valid JSON',
    });
  });

  it('no q matches every record', () => {
    expect(parseFilterParam(null)).toBe(MATCH_ALL);
  });

  it('q is compiled to the filter it says', () => {
    const filter = parseFilterParam('{"status":"open"}');
    expect([filter({ status: 'open' }), filter({ status: 'done' })]).toEqual([true, false]);
  });

  it.each(['{"$where":"1"}', '[1]', 'null', '"open"'])('q=%s is a 400 invalid_filter', (raw) => {
    expect(codeOf(() => parseFilterParam(raw))).toBe('invalid_filter');
  });
});

describe('parseFields', () => {
  it.each<[string | null, string[] | null]>([
    [null, null],
    [' ', null],
    ['title', ['title']],
    [' title , meta.city ,, id', ['title', 'meta.city', 'id']],
  ])('%p gives %p', (raw, fields) => {
    expect(parseFields(raw)).toEqual(fields);
  });

  it.each<[string, string]>([
    ['a b', '"a b" is not a valid field name'],
    ['title,$where', '"$where" is not a valid field name'],
    ['a..b', '"a..b" is not a valid field name'],
    [
      'meta.__proto__',
      'The field "meta.__proto__" is not allowed ("__proto__" is empty, an operator or a reserved name)',
    ],
  ])('%p is a 400 invalid_fields', (raw, message) => {
    expect(failureOf(() => parseFields(raw))).toEqual({ kind: 'invalid', code: 'invalid_fields', message });
  });
});

describe('parseListQuery', () => {
  it('defaults: every record, newest first, 50, from the start, whole records', () => {
    const query = parseListQuery(new URLSearchParams());
    expect({ ...query, filter: query.filter === MATCH_ALL }).toEqual({
      filter: true,
      sort: [{ path: 'created_date', descending: true }],
      limit: DEFAULT_LIMIT,
      skip: 0,
      fields: null,
    });
    expect([DEFAULT_LIMIT, MAX_LIMIT]).toEqual([50, 10_000]);
  });

  it('limit=0 means the default; the caller default sort applies', () => {
    const query = parseListQuery(new URLSearchParams('limit=0&sort='), 'title');
    expect([query.limit, query.sort]).toEqual([DEFAULT_LIMIT, [{ path: 'title', descending: false }]]);
  });

  it.each<[string, string]>([
    ['limit=10001', 'invalid_limit'],
    ['limit=-5', 'invalid_limit'],
    ['skip=x', 'invalid_skip'],
    ['sort=a%20b', 'invalid_sort'],
    ['fields=a%20b', 'invalid_fields'],
    ['q=%7B', 'invalid_filter'],
  ])('%s is a 400 %s', (params, code) => {
    expect(codeOf(() => parseListQuery(new URLSearchParams(params)))).toBe(code);
  });
});

describe('runListQuery and project', () => {
  const RECORDS = [
    { id: 'a', team: 'red', points: 5, meta: { city: 'Köln', zip: '50667' } },
    { id: 'b', team: 'blue', points: 9 },
    { id: 'c', team: 'red', points: 7, meta: { city: 'Bonn' } },
    { id: 'd', team: 'red', points: 1 },
  ];

  it('filters, then sorts, then skips and limits, then projects', () => {
    const query = parseListQuery(new URLSearchParams('q={"team":"red"}&sort=-points&skip=1&limit=2&fields=meta.city'));
    expect(runListQuery(RECORDS, query)).toEqual([{ id: 'a', meta: { city: 'Köln' } }, { id: 'd' }]);
  });

  it('without fields, records come back whole (as copies of the list, not the list)', () => {
    const projected = project(RECORDS, null);
    expect(projected).toEqual(RECORDS);
    expect(projected).not.toBe(RECORDS);
  });

  it('fields where one is the prefix of another are a 400 invalid_fields', () => {
    expect(failureOf(() => project(RECORDS, ['meta', 'meta.city']))).toEqual({
      kind: 'invalid',
      code: 'invalid_fields',
      message: 'The fields cannot be combined: Path collision at meta.city',
    });
  });
});
