/**
 * @jest-environment node
 *
 * The update document of `updateMany` (query/update-operators.ts): the operators the platform
 * documents, paths checked and never two on one field, `$currentDate` as the emulator's clock,
 * `$pull` conditions rewritten like filters, and the fields an update touches.
 */
import { applyUpdateOperators } from '@/emulator/query/engine';
import { prepareUpdate, touchedFields } from '@/emulator/query/update-operators';

import { failureOf } from '../emulator-kit';

const NOW = '2026-11-25T10:00:00.000Z';

describe('prepareUpdate', () => {
  it.each<[string, unknown, unknown]>([
    [
      '$set and $inc',
      { $set: { status: 'done' }, $inc: { count: 1 } },
      { $set: { status: 'done' }, $inc: { count: 1 } },
    ],
    ['$currentDate becomes a $set of the clock', { $currentDate: { seen: true } }, { $set: { seen: NOW } }],
    [
      '$currentDate joins the $set beside it',
      { $set: { a: 1 }, $currentDate: { 'meta.seen': { $type: 'date' } } },
      { $set: { a: 1, 'meta.seen': NOW } },
    ],
    ['$rename', { $rename: { nick: 'nickname' } }, { $rename: { nick: 'nickname' } }],
    ['$pull with an element value', { $pull: { tags: 'old' } }, { $pull: { tags: { $eq: 'old' } } }],
    [
      '$pull with a $regex runs on RE2',
      { $pull: { tags: { $regex: '^tmp' } } },
      { $pull: { tags: { $linearRegex: { pattern: '^tmp', options: '' } } } },
    ],
    [
      '$pull with a filter over element documents',
      { $pull: { items: { qty: { $lt: 1 } } } },
      { $pull: { items: { qty: { $lt: 1 } } } },
    ],
    [
      'every documented operator',
      {
        $unset: { a: '' },
        $mul: { b: 2 },
        $min: { c: 0 },
        $max: { d: 9 },
        $addToSet: { e: 'x' },
        $push: { f: { $each: [1, 2] } },
      },
      {
        $unset: { a: '' },
        $mul: { b: 2 },
        $min: { c: 0 },
        $max: { d: 9 },
        $addToSet: { e: 'x' },
        $push: { f: { $each: [1, 2] } },
      },
    ],
  ])('%s', (_label, update, prepared) => {
    expect(prepareUpdate(update, NOW)).toEqual(prepared);
  });

  it.each<[string, unknown, string]>([
    [
      'no object',
      [{ $set: { a: 1 } }],
      'The update must be an object of update operators, such as { "$set": { "status": "done" } }',
    ],
    [
      'an empty object',
      {},
      'The update must be an object of update operators, such as { "$set": { "status": "done" } }',
    ],
    ['null', null, 'The update must be an object of update operators, such as { "$set": { "status": "done" } }'],
    ['a plain field (a replacement)', { status: 'done' }, 'Unsupported update operator status'],
    ['an undocumented operator', { $setOnInsert: { a: 1 } }, 'Unsupported update operator $setOnInsert'],
    ['an operator without fields', { $set: 5 }, '$set needs an object of fields'],
    ['an operator with a list', { $inc: [1] }, '$inc needs an object of fields'],
    ['a system field', { $set: { created_by: 'me' } }, 'The system field "created_by" cannot be updated'],
    ['a path inside a system field', { $unset: { 'id.x': '' } }, 'The system field "id" cannot be updated'],
    [
      'an operator segment',
      { $set: { 'a.$where': 1 } },
      'The update field "a.$where" is not allowed ("$where" is empty, an operator or a reserved name)',
    ],
    [
      'a reserved name in a path',
      { $set: { 'a.__proto__.x': 1 } },
      'The update field "a.__proto__.x" is not allowed ("__proto__" is empty, an operator or a reserved name)',
    ],
    ['one field twice', { $set: { a: 1 }, $inc: { a: 1 } }, 'The field "a" is named more than once in the update'],
    [
      'a field and a path inside it',
      { $set: { a: {} }, $inc: { 'a.b': 1 } },
      'Updating the path "a.b" would conflict with "a" in the same update',
    ],
    [
      'a $rename onto a field set beside it',
      { $set: { b: 1 }, $rename: { a: 'b' } },
      'The field "b" is named more than once in the update',
    ],
    ['a $rename without a name', { $rename: { a: 1 } }, '$rename of "a" needs the new field name'],
    [
      'a $rename onto a system field',
      { $rename: { a: 'updated_date' } },
      'The system field "updated_date" cannot be updated',
    ],
    [
      'a $pull condition no filter may hold',
      { $pull: { tags: { $where: '1' } } },
      'Unsupported filter operator $where on "tags"',
    ],
  ])('refuses %s', (_label, update, message) => {
    const failure = failureOf(() => prepareUpdate(update, NOW));
    expect(failure.message).toBe(message);
    expect(failure.code).toBe(message.startsWith('Unsupported filter') ? 'invalid_filter' : 'invalid_update');
  });

  it('refuses a reserved name inside a value', () => {
    expect(failureOf(() => prepareUpdate({ $set: { a: JSON.parse('{"__proto__": 1}') as unknown } }, NOW))).toEqual({
      kind: 'invalid',
      code: 'invalid_update',
      message: 'The update has the reserved field name "__proto__"',
    });
  });

  it('lets sibling paths through (a.b and a.c, a and ab)', () => {
    expect(prepareUpdate({ $set: { 'a.b': 1, ab: 2 }, $inc: { 'a.c': 1 } }, NOW)).toEqual({
      $set: { 'a.b': 1, ab: 2 },
      $inc: { 'a.c': 1 },
    });
  });
});

describe('touchedFields', () => {
  it.each<[string, unknown, string[]]>([
    [
      'the first segment of each path',
      { $set: { 'meta.city': 'Bonn', title: 'x' }, $inc: { 'meta2.n': 1 } },
      ['meta', 'title', 'meta2'],
    ],
    ['both ends of a $rename', { $rename: { 'old.x': 'fresh.y' } }, ['old', 'fresh']],
    ['the array a $pull reads', { $pull: { tags: 'x' } }, ['tags']],
    ['a $currentDate field', { $currentDate: { seen: true } }, ['seen']],
  ])('%s', (_label, update, fields) => {
    expect(touchedFields(prepareUpdate(update, NOW))).toEqual(fields);
  });
});

describe('an update that cannot apply to the stored value', () => {
  const record = { id: 'r1', count: 2, label: 'x', empty: null, tags: ['a'], meta: { n: 'one' } };
  const applied = (update: unknown) => applyUpdateOperators(record, prepareUpdate(update, NOW));

  it.each<[string, unknown, RegExp]>([
    ['$inc on a string', { $inc: { label: 1 } }, /Cannot apply \$inc to "label" of record r1: it holds a string/],
    ['$inc on null', { $inc: { empty: 1 } }, /it holds null, not a number/],
    ['$mul on an array', { $mul: { tags: 2 } }, /Cannot apply \$mul to "tags".*an array, not a number/],
    ['$inc on a nested string', { $inc: { 'meta.n': 1 } }, /"meta.n".*a string, not a number/],
    ['$push onto a string', { $push: { label: 'y' } }, /Cannot apply \$push to "label".*not an array/],
    ['$addToSet onto a number', { $addToSet: { count: 1 } }, /\$addToSet to "count".*a number, not an array/],
    ['$pull from an object', { $pull: { meta: 'one' } }, /\$pull to "meta".*an object, not an array/],
  ])('refuses %s as invalid_update, naming the field and what it holds', (_name, update, message) => {
    const failure = failureOf(() => applied(update));
    expect(failure.code).toBe('invalid_update');
    expect(failure.message).toMatch(message);
  });

  it('refuses a number operand for arithmetic that is no number', () => {
    expect(failureOf(() => prepareUpdate({ $inc: { count: '1' } }, NOW)).message).toBe(
      '$inc of "count" needs a number, not "1"',
    );
  });

  it('applies to a missing field (the operator creates it) and to values of the right type', () => {
    expect(applied({ $inc: { count: 3, fresh: 1 }, $push: { tags: 'b', more: 'c' } })).toEqual({
      ...record,
      count: 5,
      fresh: 1,
      tags: ['a', 'b'],
      more: ['c'],
    });
  });
});
