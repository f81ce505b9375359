/**
 * Which live queries a written record may affect (emulator/realtime/live-query-candidates.ts): a
 * query whose filter requires a field to hold one of some values (equality or `$in`) is skipped only
 * for records that hold none of them there; queries holding the record always count, and nothing
 * else is left out.
 */
import { CandidateIndex, MAX_FILED_VALUES, requiredValues } from '@/emulator/realtime/live-query-candidates';

describe('requiredValues', () => {
  it.each<[string, unknown, { field: string; keys: string[] } | undefined]>([
    ['a plain value', { group: 'a' }, { field: 'group', keys: ['string:a'] }],
    ['$eq', { rank: { $eq: 3 } }, { field: 'rank', keys: ['number:3'] }],
    ['$eq beside other operators', { rank: { $eq: 3, $gt: 1 } }, { field: 'rank', keys: ['number:3'] }],
    ['the first of several', { done: false, group: 'a' }, { field: 'done', keys: ['boolean:false'] }],
    [
      '$in of scalars, each once',
      { group: { $in: ['a', 1, 'a'] } },
      { field: 'group', keys: ['string:a', 'number:1'] },
    ],
    ['$in beside $nin', { group: { $in: ['a'], $nin: ['b'] } }, { field: 'group', keys: ['string:a'] }],
    ['null (matches a missing field too)', { group: null }, undefined],
    ['$in with null (matches a missing field too)', { group: { $in: ['a', null] } }, undefined],
    ['$in with an array (matches that array)', { group: { $in: ['a', ['b']] } }, undefined],
    ['$in of nothing', { group: { $in: [] } }, undefined],
    [
      `$in of more than ${MAX_FILED_VALUES} values (checked on every write)`,
      { group: { $in: Array.from({ length: MAX_FILED_VALUES + 1 }, (_, at) => at) } },
      undefined,
    ],
    ['a range', { group: { $gte: 'a' } }, undefined],
    ['a document to equal', { group: { $in: ['a'], name: 'a' } }, undefined],
    ['$nin alone', { group: { $nin: ['a'] } }, undefined],
    ['a nested path', { 'meta.level': 1 }, undefined],
    ['only logical operators', { $or: [{ group: 'a' }] }, undefined],
    ['no filter', undefined, undefined],
  ])('%s', (_label, filter, expected) => {
    expect(requiredValues(filter)).toEqual(expected);
  });
});

it(`files a $in of ${MAX_FILED_VALUES} values under each of them`, () => {
  const values = Array.from({ length: MAX_FILED_VALUES }, (_, at) => at);
  expect(requiredValues({ rank: { $in: values } })?.keys).toHaveLength(MAX_FILED_VALUES);
});

describe('CandidateIndex', () => {
  const index = new CandidateIndex<string>();
  index.add('group a', requiredValues({ group: 'a' }), []);
  index.add('rank 1', requiredValues({ rank: 1 }), ['held']);
  index.add('any', requiredValues({ rank: { $gt: 0 } }), []);
  index.add('b or c', requiredValues({ group: { $in: ['b', 'c'] } }), []);
  const candidates = (record: Record<string, unknown>, deleted = false) =>
    [...index.candidates({ id: 'x', ...record }, deleted)].sort();

  it('files by the required value, also inside arrays, and keeps types apart', () => {
    expect(candidates({ group: 'a', rank: 2 })).toEqual(['any', 'group a']);
    expect(candidates({ group: ['b', 'a'] })).toEqual(['any', 'b or c', 'group a']);
    expect(candidates({ group: 'c' })).toEqual(['any', 'b or c']);
    expect(candidates({ group: 'd' })).toEqual(['any']);
    expect(candidates({ rank: '1' })).toEqual(['any']);
    expect(candidates({ rank: 1 })).toEqual(['any', 'rank 1']);
  });

  it('always counts the queries holding the record, and only those for a delete', () => {
    expect([...index.candidates({ id: 'held', rank: 5 }, false)].sort()).toEqual(['any', 'rank 1']);
    expect([...index.candidates({ id: 'held' }, true)]).toEqual(['rank 1']);
    index.hold('rank 1', [], ['held']);
    expect([...index.candidates({ id: 'held' }, true)]).toEqual([]);
  });

  it('forgets a deleted query', () => {
    index.delete('group a', requiredValues({ group: 'a' }), []);
    expect(candidates({ group: 'a' })).toEqual(['any']);
    expect(index.size).toBe(3);
  });

  it('forgets a query filed under several values under each of them', () => {
    index.delete('b or c', requiredValues({ group: { $in: ['b', 'c'] } }), []);
    expect(candidates({ group: 'b' })).toEqual(['any']);
    expect(candidates({ group: 'c' })).toEqual(['any']);
    expect(index.size).toBe(2);
  });
});
