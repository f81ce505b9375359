/**
 * @jest-environment node
 *
 * Sorting (query/sort.ts): the `sort` parameter, MongoDB's order of mixed types, the key an array
 * sorts by, and the order of ties (insertion order, reversed when the first key descends), for a
 * whole list and for a short page alike.
 */
import { compareSortKeys, parseSort, sortKeyOf, sortRecords } from '@/emulator/query/sort';

import { failureOf } from '../emulator-kit';

describe('parseSort', () => {
  it.each<[string, unknown]>([
    ['-created_date', [{ path: 'created_date', descending: true }]],
    ['title', [{ path: 'title', descending: false }]],
    ['+title', [{ path: 'title', descending: false }]],
    [
      ' -points , title ,,meta.city',
      [
        { path: 'points', descending: true },
        { path: 'title', descending: false },
        { path: 'meta.city', descending: false },
      ],
    ],
  ])('%p', (spec, keys) => {
    expect(parseSort(spec)).toEqual(keys);
  });

  it.each<[string, string]>([
    ['', 'sort needs at least one field'],
    [' , ', 'sort needs at least one field'],
    ['a b', '"a b" is not a valid sort field'],
    ['--a', '"--a" is not a valid sort field'],
    ['a.$gt', '"a.$gt" is not a valid sort field'],
    ['a.', '"a." is not a valid sort field'],
    ['__proto__', 'The sort field "__proto__" is not allowed ("__proto__" is empty, an operator or a reserved name)'],
    [
      '-a.constructor',
      'The sort field "a.constructor" is not allowed ("constructor" is empty, an operator or a reserved name)',
    ],
  ])('%p is a 400 invalid_sort', (spec, message) => {
    expect(failureOf(() => parseSort(spec))).toEqual({ kind: 'invalid', code: 'invalid_sort', message });
  });
});

describe('compareSortKeys: MongoDB order of types, then values', () => {
  /** Ascending, each strictly before the next. */
  const ORDERED: unknown[] = [
    [],
    null,
    -5,
    0,
    2.5,
    10,
    '',
    '10',
    'B',
    'a',
    {},
    { a: 1 },
    { a: 1, b: 0 },
    { a: 2 },
    { b: 0 },
    [1],
    [1, 2],
    [2],
    ['a'],
    false,
    true,
  ];
  const pairs = ORDERED.flatMap((left, at) => ORDERED.slice(at + 1).map((right) => [left, right] as const));

  it.each(pairs)('%p < %p', (left, right) => {
    expect([compareSortKeys(left, right), compareSortKeys(right, left)]).toEqual([-1, 1]);
  });

  it.each<[unknown, unknown]>([
    [null, undefined],
    [3, 3],
    ['x', 'x'],
    [{ a: [1] }, { a: [1] }],
    [[], []],
  ])('%p equals %p', (left, right) => {
    expect(compareSortKeys(left, right)).toBe(0);
  });
});

describe('sortKeyOf: an array sorts by its smallest element ascending, its largest descending', () => {
  it.each<[unknown, boolean, unknown]>([
    [[3, 1, 2], false, 1],
    [[3, 1, 2], true, 3],
    [[2, 'a', null], false, null],
    [[2, 'a', null], true, 'a'],
    [[], false, []],
    [undefined, false, null],
    [null, true, null],
    ['x', true, 'x'],
    [{ a: 1 }, false, { a: 1 }],
  ])('%p (descending %p) sorts as %p', (value, descending, key) => {
    expect(sortKeyOf(value, descending)).toEqual(key);
  });
});

describe('sortRecords', () => {
  const RECORDS = [
    { id: 'a', n: 2, tag: 'x' },
    { id: 'b', n: null, tag: 'y' },
    { id: 'c', tag: 'x' },
    { id: 'd', n: 'two', tag: 'y' },
    { id: 'e', n: [5, 0], tag: 'x' },
    { id: 'f', n: 2, tag: 'y' },
    { id: 'g', n: [], tag: 'x' },
  ];
  const ids = (records: readonly { id: string }[]) => records.map((record) => record.id).join('');

  it.each<[string, number, string]>([
    ['n', Infinity, 'gbceafd'],
    ['-n', Infinity, 'defacbg'],
    ['tag,-n', Infinity, 'eacgdfb'],
    ['-tag,n', Infinity, 'bfdgcea'],
    ['n', 3, 'gbc'],
    ['-n', 1, 'd'],
    ['tag,-n', 2, 'ea'],
    ['missing', Infinity, 'abcdefg'],
    ['-missing', Infinity, 'gfedcba'],
    ['-missing', 1, 'g'],
    ['n', 0, ''],
  ])('sort %p, take %p: %p', (spec, take, expected) => {
    expect(ids(sortRecords(RECORDS, parseSort(spec), take))).toBe(expected);
  });

  it('a short page (one pass, kept best) equals the head of the full sort', () => {
    const many = Array.from({ length: 400 }, (_, at) => ({ id: `r${at}`, n: (at * 37) % 23, s: at % 2 ? 'x' : null }));
    for (const spec of ['n', '-n', 's,-n', '-s,n,-id']) {
      const keys = parseSort(spec);
      expect(sortRecords(many, keys, 7)).toEqual(sortRecords(many, keys).slice(0, 7));
    }
  });

  it('leaves its input alone', () => {
    const input = [...RECORDS];
    sortRecords(input, parseSort('-n'));
    expect(input).toEqual(RECORDS);
  });
});
