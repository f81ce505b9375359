/**
 * @jest-environment node
 *
 * Filter validation and rewriting (query/filter.ts): the size limits checked before any record is
 * read, the operators a filter may hold and the shape each needs, and what the engine receives.
 */
import { FILTER_LIMITS, rewriteFilterForEngine, rewritePullCondition } from '@/emulator/query/filter';
import { MAX_REGEX_LENGTH } from '@/emulator/query/linear-regex';

import { failureOf } from '../emulator-kit';

const list = (length: number) => Array.from({ length }, (_, at) => at);
const branches = (length: number) => Array.from({ length }, (_, at) => ({ a: at }));
/** `{ a: { $not: { $not: ... { $eq: 1 } } } }`, `levels` operators deep. */
function nestedNot(levels: number): unknown {
  let condition: unknown = { $eq: 1 };
  for (let at = 0; at < levels; at += 1) condition = { $not: condition };
  return { a: condition };
}

describe('size limits (FILTER_LIMITS)', () => {
  it('are the documented figures', () => {
    expect(FILTER_LIMITS).toEqual({ listItems: 1000, branches: 100, nodes: 2000 });
  });

  it.each<[string, unknown]>([
    [`$in of ${FILTER_LIMITS.listItems} values`, { a: { $in: list(FILTER_LIMITS.listItems) } }],
    [`$nin of ${FILTER_LIMITS.listItems} values`, { a: { $nin: list(FILTER_LIMITS.listItems) } }],
    [`$all of ${FILTER_LIMITS.listItems} values`, { a: { $all: list(FILTER_LIMITS.listItems) } }],
    [`$or of ${FILTER_LIMITS.branches} branches`, { $or: branches(FILTER_LIMITS.branches) }],
    ['16 levels of $not', nestedNot(15)],
  ])('accept %s', (_label, filter) => {
    expect(() => rewriteFilterForEngine(filter)).not.toThrow();
  });

  it.each<[string, unknown, string]>([
    ['$in', { a: { $in: list(1001) } }, '$in may list at most 1000 values (received 1001)'],
    ['$nin', { a: { $nin: list(1001) } }, '$nin may list at most 1000 values (received 1001)'],
    ['$all', { a: { $all: list(1001) } }, '$all may list at most 1000 values (received 1001)'],
    ['$or', { $or: branches(101) }, '$or may hold at most 100 conditions (received 101)'],
    ['$and', { $and: branches(101) }, '$and may hold at most 100 conditions (received 101)'],
    ['$nor', { $nor: branches(101) }, '$nor may hold at most 100 conditions (received 101)'],
    [
      'conditions and values in all',
      { $or: list(3).map(() => ({ a: { $in: list(700) } })) },
      'A filter may hold at most 2000 conditions and values in all',
    ],
    ['depth', nestedNot(17), 'Filters may nest at most 16 levels'],
  ])('refuse one over the limit of %s', (_label, filter, message) => {
    expect(failureOf(() => rewriteFilterForEngine(filter))).toEqual({
      kind: 'invalid',
      code: 'invalid_filter',
      message,
    });
  });
});

describe('rewrites for the engine', () => {
  it.each<[string, unknown, unknown]>([
    ['a plain value becomes $eq', { a: 1, b: null }, { a: { $eq: 1 }, b: { $eq: null } }],
    ['a document value becomes $eq of it', { a: { x: 1 } }, { a: { $eq: { x: 1 } } }],
    [
      '$regex with $options becomes $linearRegex',
      { a: { $regex: '^x', $options: 'im' } },
      { a: { $linearRegex: { pattern: '^x', options: 'im' } } },
    ],
    [
      '$regex without $options gets none',
      { a: { $regex: 'x' } },
      { a: { $linearRegex: { pattern: 'x', options: '' } } },
    ],
    [
      '$regex inside $not',
      { a: { $not: { $regex: 'x' } } },
      { a: { $not: { $linearRegex: { pattern: 'x', options: '' } } } },
    ],
    ['$mod truncated towards zero', { a: { $mod: [4.5, -1.5] } }, { a: { $mod: [4, -1] } }],
    [
      '$elemMatch on the element itself',
      { a: { $elemMatch: { $gt: 1, $regex: 'x' } } },
      { a: { $elemMatch: { $gt: 1, $linearRegex: { pattern: 'x', options: '' } } } },
    ],
    [
      '$elemMatch over element fields is a filter',
      { a: { $elemMatch: { w: 'A', q: { $gte: 5 } } } },
      { a: { $elemMatch: { w: { $eq: 'A' }, q: { $gte: 5 } } } },
    ],
    [
      '$elemMatch with $or is a filter',
      { a: { $elemMatch: { $or: [{ w: 'A' }] } } },
      { a: { $elemMatch: { $or: [{ w: { $eq: 'A' } }] } } },
    ],
    [
      '$all items with $elemMatch',
      { a: { $all: [{ $elemMatch: { q: 1 } }, 'x'] } },
      { a: { $all: [{ $elemMatch: { q: { $eq: 1 } } }, 'x'] } },
    ],
    ['logical branches', { $or: [{ a: 1 }, { b: { $in: [2] } }] }, { $or: [{ a: { $eq: 1 } }, { b: { $in: [2] } }] }],
    ['$type with a list of aliases and numbers', { a: { $type: ['string', 16] } }, { a: { $type: ['string', 16] } }],
    ['a dotted path', { 'a.b': { $exists: false } }, { 'a.b': { $exists: false } }],
  ])('%s', (_label, filter, criteria) => {
    expect(rewriteFilterForEngine(filter)).toEqual(criteria);
  });
});

describe('refusals name what is wrong (400 invalid_filter)', () => {
  it.each<[string, unknown, string]>([
    ['not an object', 'a', 'A filter must be a JSON object'],
    ['an unknown top-level operator', { $where: 'true' }, 'Unsupported top-level filter operator $where'],
    ['an unknown field operator', { a: { $near: [0, 0] } }, 'Unsupported filter operator $near on "a"'],
    ['operators mixed with fields', { a: { $gt: 1, b: 2 } }, 'The condition on "a" mixes operators and plain fields'],
    ['an empty $or', { $or: [] }, '$or needs at least one condition'],
    ['$or without a list', { $or: { a: 1 } }, '$or on "$or" needs an array'],
    ['$in without a list', { a: { $in: 1 } }, '$in on "a" needs an array'],
    ['$exists not boolean', { a: { $exists: 1 } }, '$exists on "a" needs true or false'],
    ['$size negative', { a: { $size: -1 } }, '$size on "a" needs a non-negative integer'],
    ['$size a fraction', { a: { $size: 1.5 } }, '$size on "a" needs a non-negative integer'],
    ['$type unknown', { a: { $type: 'text' } }, '$type on "a" needs a BSON type name or number (or a list of them)'],
    ['$type an empty list', { a: { $type: [] } }, '$type on "a" needs a BSON type name or number (or a list of them)'],
    ['$mod of one number', { a: { $mod: [2] } }, '$mod on "a" needs [divisor, remainder], two finite numbers'],
    ['$mod of strings', { a: { $mod: ['2', 0] } }, '$mod on "a" needs [divisor, remainder], two finite numbers'],
    [
      '$mod by a divisor that truncates to 0',
      { a: { $mod: [0.5, 0] } },
      '$mod on "a" needs a divisor that is not 0 once truncated to an integer',
    ],
    ['$not of a value', { a: { $not: 5 } }, '$not on "a" needs an operator object such as { "$regex": "..." }'],
    [
      '$not of an empty object',
      { a: { $not: {} } },
      '$not on "a" needs an operator object such as { "$regex": "..." }',
    ],
    ['$elemMatch of a value', { a: { $elemMatch: 1 } }, '$elemMatch on "a" needs an object'],
    ['$options alone', { a: { $options: 'i' } }, '$options on "a" needs $regex'],
    [
      '$regex not a string',
      { a: { $regex: 1 } },
      `$regex on "a" needs a string (at most ${MAX_REGEX_LENGTH} characters)`,
    ],
    ['$options not a string', { a: { $regex: 'x', $options: 1 } }, '$options on "a" must be a string'],
    [
      'a reserved field name',
      JSON.parse('{"__proto__": 1}') as unknown,
      'The filter field "__proto__" is not allowed ("__proto__" is empty, an operator or a reserved name)',
    ],
    [
      'an empty path segment',
      { 'a..b': 1 },
      'The filter field "a..b" is not allowed ("" is empty, an operator or a reserved name)',
    ],
    [
      'a reserved name inside a compared value',
      { a: { $eq: JSON.parse('{"__proto__": 1}') as unknown } },
      'The $eq value on "a" has the reserved field name "__proto__"',
    ],
  ])('%s', (_label, filter, message) => {
    expect(failureOf(() => rewriteFilterForEngine(filter))).toEqual({
      kind: 'invalid',
      code: 'invalid_filter',
      message,
    });
  });
});

describe('rewritePullCondition', () => {
  it.each<[string, unknown, unknown]>([
    ['an element value', 'x', { $eq: 'x' }],
    ['an operator object', { $gte: 5 }, { $gte: 5 }],
    ['a $regex', { $regex: '^a' }, { $linearRegex: { pattern: '^a', options: '' } }],
    ['a filter over element documents', { w: 'A', q: { $lt: 3 } }, { w: { $eq: 'A' }, q: { $lt: 3 } }],
  ])('%s', (_label, condition, rewritten) => {
    expect(rewritePullCondition('tags', condition)).toEqual(rewritten);
  });

  it('refuses what a filter refuses', () => {
    expect(failureOf(() => rewritePullCondition('tags', { $where: 'true' })).code).toBe('invalid_filter');
    expect(failureOf(() => rewritePullCondition('tags', { $in: list(1001) })).code).toBe('invalid_filter');
  });
});
