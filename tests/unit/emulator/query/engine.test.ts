/**
 * @jest-environment node
 *
 * The query engine (query/engine.ts) called directly: MongoDB's comparison rules (type bracketing,
 * missing fields against null, arrays matched element by element), the manual's operators where
 * mingo departs from them, `$regex` on RE2, the operators a client may not use, and valueAt.
 */
import {
  applyUpdateOperators,
  compileCriteria,
  compileFilter,
  MATCH_ALL,
  runPipeline,
  valueAt,
} from '@/emulator/query/engine';
import { prepareUpdate } from '@/emulator/query/update-operators';

import { codeOf, failureOf } from '../emulator-kit';

type Row = [label: string, filter: unknown, record: Record<string, unknown>, matches: boolean];

const matches = (filter: unknown, record: Record<string, unknown>) => compileFilter(filter)(record);

describe('comparison: same type only, as MongoDB brackets types', () => {
  it.each<Row>([
    ['$gt a number', { a: { $gt: 5 } }, { a: 6 }, true],
    ['$gt equal number', { a: { $gt: 5 } }, { a: 5 }, false],
    ['$gte equal number', { a: { $gte: 5 } }, { a: 5 }, true],
    ['$gt a number against a numeric string', { a: { $gt: 5 } }, { a: '6' }, false],
    ['$lt a number against null', { a: { $lt: 5 } }, { a: null }, false],
    ['$lt a number against a missing field', { a: { $lt: 5 } }, {}, false],
    ['$gt a string against a number', { a: { $gt: 'a' } }, { a: 1 }, false],
    ['$gt strings compare by code unit', { a: { $gt: 'Z' } }, { a: 'a' }, true],
    ['$lte null matches null', { a: { $lte: null } }, { a: null }, true],
    ['$gte null does not match a missing field', { a: { $gte: null } }, {}, false],
    ['equality is typed: 1 is not true', { a: 1 }, { a: true }, false],
    ['equality is typed: true is not 1', { a: true }, { a: 1 }, false],
    ['equality is typed: "1" is not 1', { a: '1' }, { a: 1 }, false],
    ['$ne of another type matches', { a: { $ne: '5' } }, { a: 5 }, true],
    ['a range on a field', { a: { $gt: 1, $lt: 3 } }, { a: 2 }, true],
  ])('%s', (_label, filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('missing fields and null', () => {
  it.each<Row>([
    ['{a: null} matches a null', { a: null }, { a: null }, true],
    ['{a: null} matches a missing field', { a: null }, {}, true],
    ['{a: null} does not match a value', { a: null }, { a: 0 }, false],
    ['$ne null: a missing field is null', { a: { $ne: null } }, {}, false],
    ['$ne null: a value', { a: { $ne: null } }, { a: '' }, true],
    ['$exists true: null is present', { a: { $exists: true } }, { a: null }, true],
    ['$exists false: missing', { a: { $exists: false } }, {}, true],
    ['$exists false: null is present', { a: { $exists: false } }, { a: null }, false],
    ['$type null: a missing field has no type', { a: { $type: 'null' } }, {}, false],
    ['$type null', { a: { $type: 'null' } }, { a: null }, true],
    ['$in with null matches a missing field', { a: { $in: [null, 1] } }, {}, true],
    ['$in without null does not', { a: { $in: [0, 1] } }, {}, false],
    ['$nin with null excludes a missing field', { a: { $nin: [null] } }, {}, false],
    ['$nin of an empty list matches everything', { a: { $nin: [] } }, {}, true],
    ['$in of an empty list matches nothing', { a: { $in: [] } }, { a: 1 }, false],
    ['an inherited name is no field', { toString: null }, {}, true],
    ['an inherited name does not exist', { valueOf: { $exists: true } }, {}, false],
  ])('%s', (_label, filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('arrays', () => {
  it.each<Row>([
    ['a scalar matches an element', { tags: 'x' }, { tags: ['x', 'y'] }, true],
    ['an array matches the whole array, in order', { tags: ['x', 'y'] }, { tags: ['x', 'y'] }, true],
    ['an array in another order does not', { tags: ['y', 'x'] }, { tags: ['x', 'y'] }, false],
    ['an array matches an element that is that array', { a: { $eq: [1, 2] } }, { a: [[1, 2], 3] }, true],
    ['a range may be met by two elements', { a: { $gt: 1, $lt: 3 } }, { a: [0, 4] }, true],
    ['$elemMatch needs one element to meet it all', { a: { $elemMatch: { $gt: 1, $lt: 3 } } }, { a: [0, 4] }, false],
    [
      '$elemMatch over element fields',
      { a: { $elemMatch: { w: 'A', q: { $gte: 5 } } } },
      { a: [{ w: 'A', q: 5 }] },
      true,
    ],
    ['$gt on any element', { a: { $gt: 5 } }, { a: [1, 10] }, true],
    ['$in on any element', { tags: { $in: ['z', 'y'] } }, { tags: ['x', 'y'] }, true],
    ['$nin when no element is listed', { tags: { $nin: ['z'] } }, { tags: ['x', 'y'] }, true],
    ['$all holds every item', { tags: { $all: ['y', 'x'] } }, { tags: ['x', 'y', 'z'] }, true],
    ['$all misses one', { tags: { $all: ['x', 'q'] } }, { tags: ['x', 'y'] }, false],
    ['$all of an empty list matches nothing', { tags: { $all: [] } }, { tags: ['x'] }, false],
    ['$size', { tags: { $size: 2 } }, { tags: ['x', 'y'] }, true],
    ['$size of a missing field', { tags: { $size: 0 } }, {}, false],
    ['a dotted path through an array of documents', { 'a.b': 2 }, { a: [{ b: 1 }, { b: 2 }] }, true],
    ['a numeric segment is a position in a filter', { 'a.0': 'x' }, { a: ['x', 'y'] }, true],
    ['$type array', { a: { $type: 'array' } }, { a: [] }, true],
  ])('%s', (_label, filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('embedded documents and $mod follow the manual, not mingo', () => {
  it.each<Row>([
    ['the exact document', { size: { h: 14, w: 21 } }, { size: { h: 14, w: 21 } }, true],
    ['the same fields in another order', { size: { w: 21, h: 14 } }, { size: { h: 14, w: 21 } }, false],
    ['a document element in another order', { a: { w: 'A', q: 5 } }, { a: [{ q: 5, w: 'A' }] }, false],
    ['$in of documents compares exactly', { a: { $in: [{ w: 'A', q: 5 }] } }, { a: { q: 5, w: 'A' } }, false],
    ['$ne of a document in another order', { a: { $ne: { w: 1, h: 2 } } }, { a: { h: 2, w: 1 } }, true],
    ['$mod truncates a decimal divisor', { qty: { $mod: [4.5, 0] } }, { qty: 12 }, true],
    ['$mod truncates the field value', { qty: { $mod: [4, 0] } }, { qty: 8.9 }, true],
    ['$mod never matches a numeric string', { qty: { $mod: [2, 1] } }, { qty: '3' }, false],
    ['$mod on any array element', { qty: { $mod: [5, 0] } }, { qty: [3, 10] }, true],
  ])('%s', (_label, filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('$regex runs on the linear-time engine', () => {
  it.each<Row>([
    ['a prefix', { name: { $regex: '^An' } }, { name: 'Anna' }, true],
    ['case matters by default', { name: { $regex: '^an' } }, { name: 'Anna' }, false],
    ['the i option', { name: { $regex: '^an', $options: 'i' } }, { name: 'Anna' }, true],
    ['any element of an array', { tags: { $regex: '^a' } }, { tags: ['b', 'ab'] }, true],
    ['never a number', { n: { $regex: '1' } }, { n: 1 }, false],
    ['never a missing field', { n: { $regex: '' } }, {}, false],
    ['$not $regex matches a missing field', { n: { $not: { $regex: '^a' } } }, {}, true],
    [
      'a pattern a backtracking engine stalls on, answered',
      { s: { $regex: '^(a+)+$' } },
      { s: `${'a'.repeat(2000)}!` },
      false,
    ],
  ])('%s', (_label, filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('logical operators', () => {
  it.each<Row>([
    ['$or', { $or: [{ a: 1 }, { b: 1 }] }, { b: 1 }, true],
    ['$and', { $and: [{ a: 1 }, { b: 1 }] }, { a: 1, b: 2 }, false],
    ['$nor', { $nor: [{ a: 1 }, { b: 1 }] }, { a: 2 }, true],
    ['$and beside $or: both must hold', { $and: [{ a: 1 }], $or: [{ b: 1 }] }, { a: 1, b: 2 }, false],
    ['$not of a range', { a: { $not: { $gt: 5 } } }, { a: 3 }, true],
  ])('%s', (_label, filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('what a client may not ask for', () => {
  it.each<[string, unknown]>([
    ['$where', { $where: 'this.a === 1' }],
    ['$expr', { $expr: { $eq: ['$a', 1] } }],
    ['$text', { $text: { $search: 'x' } }],
    ['$function inside a field', { a: { $function: { body: 'return 1', args: [], lang: 'js' } } }],
    ['the engine-only $linearRegex', { a: { $linearRegex: { pattern: '.', options: '' } } }],
    ['a backreference RE2 cannot run', { a: { $regex: '(a)\\1' } }],
    ['a lookahead', { a: { $regex: 'a(?=b)' } }],
    ['an unknown $options flag', { a: { $regex: 'a', $options: 'g' } }],
    ['a filter that is no object', ['a']],
  ])('%s is a 400 invalid_filter', (_label, filter) => {
    expect(codeOf(() => compileFilter(filter))).toBe('invalid_filter');
  });

  it('refuses an operator the rewrite let through, inside the engine too (criteria are never trusted)', () => {
    expect(codeOf(() => compileCriteria({ a: { $where: 'true' } }))).toBe('invalid_filter');
  });
});

describe('the compiled filter', () => {
  it('keeps its rewritten criteria for the index planner', () => {
    expect(compileFilter({ a: 1, b: { $regex: '^x', $options: 'i' } }).criteria).toEqual({
      a: { $eq: 1 },
      b: { $linearRegex: { pattern: '^x', options: 'i' } },
    });
  });

  it('MATCH_ALL matches everything and has no criteria', () => {
    expect([MATCH_ALL({}), MATCH_ALL({ a: null }), MATCH_ALL.criteria]).toEqual([true, true, {}]);
  });

  // The fast path answers scalar fields itself and hands arrays and documents to the engine: both
  // must give the engine's answer.
  it.each<[string, Record<string, unknown>, boolean]>([
    ['a number in range', { team: 'red', points: 600 }, true],
    ['a number out of range', { team: 'red', points: 400 }, false],
    ['a numeric string', { team: 'red', points: '600' }, false],
    ['an array with one element in range', { team: 'red', points: [400, 600] }, true],
    ['an array of the team', { team: ['blue', 'red'], points: 500 }, true],
    ['a document', { team: 'red', points: { v: 600 } }, false],
    ['a missing field', { team: 'red' }, false],
  ])('a fast-path filter on %s', (_label, record, expected) => {
    expect(matches({ team: 'red', points: { $gte: 500 } }, record)).toBe(expected);
  });
});

describe('valueAt', () => {
  it.each<[string, unknown, string, unknown]>([
    ['a top-level field', { a: 1 }, 'a', 1],
    ['a missing field', { a: 1 }, 'b', undefined],
    ['an inherited name', {}, 'toString', undefined],
    ['a nested field', { a: { b: { c: 3 } } }, 'a.b.c', 3],
    ['through an array of documents', { a: [{ b: 1 }, { b: 2 }, { c: 3 }] }, 'a.b', [1, 2]],
    ['a position in an array', { a: ['x', 'y'] }, 'a.1', 'y'],
    ['below a scalar', { a: 5 }, 'a.b', undefined],
  ])('%s', (_label, record, path, expected) => {
    expect(valueAt(record, path)).toEqual(expected);
  });
});

describe('applyUpdateOperators (prepared by prepareUpdate)', () => {
  const apply = (record: Record<string, unknown>, update: unknown) =>
    applyUpdateOperators(record, prepareUpdate(update, '2026-11-25T10:00:00.000Z'));

  it.each<[string, Record<string, unknown>, unknown, Record<string, unknown>]>([
    [
      '$inc and a linear $pull',
      { a: 1, tags: ['tmp1', 'keep'] },
      { $inc: { a: 2 }, $pull: { tags: { $regex: '^tmp' } } },
      { a: 3, tags: ['keep'] },
    ],
    [
      '$pull by a filter over element documents',
      { items: [{ qty: 0 }, { qty: 5 }] },
      { $pull: { items: { qty: { $lt: 1 } } } },
      { items: [{ qty: 5 }] },
    ],
    ['$rename', { a: 1 }, { $rename: { a: 'b' } }, { b: 1 }],
    ['$push $each onto a missing field', { a: 1 }, { $push: { t: { $each: [1, 2] } } }, { a: 1, t: [1, 2] }],
    ['$addToSet of a member', { a: [1] }, { $addToSet: { a: 1 } }, { a: [1] }],
    ['$min', { a: 5 }, { $min: { a: 3 } }, { a: 3 }],
    ['$mul', { a: 5 }, { $mul: { a: 3 } }, { a: 15 }],
    ['$unset of a nested path', { a: { b: 1, c: 2 } }, { $unset: { 'a.b': '' } }, { a: { c: 2 } }],
    ['$currentDate', {}, { $currentDate: { seen: true } }, { seen: '2026-11-25T10:00:00.000Z' }],
  ])('%s', (_label, record, update, expected) => {
    const before = structuredClone(record);
    expect(apply(record, update)).toEqual(expected);
    expect(record).toEqual(before);
  });
});

describe('runPipeline', () => {
  it('runs the stages the emulator builds', () => {
    const stages = [{ $group: { _id: '$a', n: { $sum: 1 } } }, { $sort: { _id: 1 } }];
    expect(runPipeline([{ a: 1 }, { a: 2 }, { a: 1 }], stages)).toEqual([
      { _id: 1, n: 2 },
      { _id: 2, n: 1 },
    ]);
  });

  it('has no stage outside its list (a 400, not a crash)', () => {
    expect(failureOf(() => runPipeline([{ a: 1 }], [{ $out: 'elsewhere' }]))).toEqual({
      kind: 'invalid',
      code: 'invalid_filter',
      message: 'The filter was rejected by the query engine: unregistered pipeline operator $out.',
    });
  });
});
