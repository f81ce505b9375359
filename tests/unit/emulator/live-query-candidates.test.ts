/**
 * Which live queries a written record may affect (emulator/realtime/live-query-candidates.ts): a
 * query whose filter requires a field to equal a value is skipped only for records that hold
 * another value there; queries holding the record always count, and nothing else is left out.
 */
import { CandidateIndex, requiredEquality } from '@/emulator/realtime/live-query-candidates';

describe('requiredEquality', () => {
  it.each<[string, unknown, { field: string; key: string } | undefined]>([
    ['a plain value', { group: 'a' }, { field: 'group', key: 'string:a' }],
    ['$eq', { rank: { $eq: 3 } }, { field: 'rank', key: 'number:3' }],
    ['the first of several', { done: false, group: 'a' }, { field: 'done', key: 'boolean:false' }],
    ['null (matches a missing field too)', { group: null }, undefined],
    ['operators', { group: { $in: ['a'] } }, undefined],
    ['a nested path', { 'meta.level': 1 }, undefined],
    ['only logical operators', { $or: [{ group: 'a' }] }, undefined],
    ['no filter', undefined, undefined],
  ])('%s', (_label, filter, expected) => {
    expect(requiredEquality(filter)).toEqual(expected);
  });
});

describe('CandidateIndex', () => {
  const index = new CandidateIndex<string>();
  index.add('group a', requiredEquality({ group: 'a' }), []);
  index.add('rank 1', requiredEquality({ rank: 1 }), ['held']);
  index.add('any', requiredEquality({ rank: { $gt: 0 } }), []);
  const candidates = (record: Record<string, unknown>, deleted = false) =>
    [...index.candidates({ id: 'x', ...record }, deleted)].sort();

  it('files by the required value, also inside arrays, and keeps types apart', () => {
    expect(candidates({ group: 'a', rank: 2 })).toEqual(['any', 'group a']);
    expect(candidates({ group: ['b', 'a'] })).toEqual(['any', 'group a']);
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
    index.delete('group a', requiredEquality({ group: 'a' }), []);
    expect(candidates({ group: 'a' })).toEqual(['any']);
    expect(index.size).toBe(2);
  });
});
