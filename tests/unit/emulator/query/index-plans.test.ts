/**
 * @jest-environment node
 *
 * Which plan the planner picks (query/indexes/planner.ts), observed through the plan each read
 * hands back: an index for the shapes it serves (equality, `$in`, ranges, sort + limit, exact
 * counts), the scan for what no index may answer (conditions that match a missing field, nested
 * paths, undeclared fields, a sort on a field this caller's rules may hide), and always the scan's
 * answer. Indexes follow updates, deletes, loads and changes of the indexed fields.
 */
import type { EntityRecord } from '@/emulator/core/types';
import { compileFilter } from '@/emulator/query/engine';
import { countViews } from '@/emulator/query/indexes/execute';
import type { ReadRequest } from '@/emulator/query/indexes/planner';
import { parseSort } from '@/emulator/query/sort';
import { Collection } from '@/emulator/store/collection';

import {
  collectionOf,
  indexedFieldsOf,
  ITEM_SCHEMA,
  OWNER,
  planned,
  record,
  rulesFor,
  scanned,
  SERVICE,
  sourceOf,
  userCaller,
} from './index-kit';

const FIELDS = indexedFieldsOf(ITEM_SCHEMA);
const service = rulesFor(SERVICE);
const ana = rulesFor(userCaller(OWNER));
const SIZE = 2000;

/** 2,000 records: `a` unique 0..1999, `b` one of four, `owner` one of 100, every third one by ana. */
function records(): EntityRecord[] {
  return Array.from({ length: SIZE }, (_, at) =>
    record(
      {
        a: at,
        b: at % 4,
        owner: `owner-${at % 100}`,
        tags: [`t${at % 7}`, `t${at % 5}`],
        n: { x: at % 3 },
        secret: `s${at % 10}`,
        ...(at % 9 === 0 ? {} : { u: at % 2 }),
      },
      at % 500,
    ),
  ).map((item, at) => (at % 3 === 0 ? item : { ...item, created_by: 'bo@example.com' }));
}

const request = (filter: unknown, sort: string | null, take = 10): ReadRequest => ({
  filter: compileFilter(filter),
  sort: sort === null ? null : parseSort(sort),
  take,
});

/** Reads by plan and by scan; they must agree. Returns the plan and the answer. */
function read(
  collection: Collection<EntityRecord>,
  rules = service,
  ask = request({}, '-created_date'),
  fields = FIELDS,
) {
  const source = sourceOf(collection, fields);
  const { result, plan } = planned(source, rules, ask);
  expect(result).toEqual(scanned(source.records, rules, ask));
  return { result, plan };
}

describe('the planner serves', () => {
  const collection = collectionOf(records());

  it.each<[string, unknown, string | null, object]>([
    ['equality on a declared field', { owner: 'owner-17' }, '-created_date', { field: 'owner', operator: 'eq' }],
    ['$in', { owner: { $in: ['owner-1', 'owner-2'] } }, 'a', { field: 'owner', operator: 'in' }],
    ['a selective range', { a: { $gte: 1990 } }, '-created_date', { field: 'a', operator: 'range' }],
    ['a range with both bounds', { a: { $gt: 100, $lte: 110 } }, 'b', { field: 'a', operator: 'range' }],
    ['an array element (multikey)', { tags: 't6', a: { $lt: 1000 } }, '-created_date', { field: 'tags', take: 200 }],
    ['id', { id: 'r00017' }, null, { field: 'id', operator: 'eq' }],
    ['the most selective of several conditions', { b: 1, owner: 'owner-5' }, '-created_date', { field: 'owner' }],
    [
      'a condition inside $and, beside an $or',
      { $and: [{ owner: 'owner-3' }], $or: [{ b: 3 }, { u: 1 }] },
      null,
      { field: 'owner' },
    ],
  ])('%s with an index filter', (_label, filter, sort, { take, ...expected }: { take?: number }) => {
    const { plan } = read(collection, service, request(filter, sort, take));
    expect(plan).toMatchObject({ strategy: 'index-filter', ...expected });
  });

  it.each<[string, unknown, string, object]>([
    ['sort + limit without a filter', {}, '-a', { field: 'a', descending: true }],
    ['sort + limit with a broad filter', { a: { $gte: 10 } }, '-a', { field: 'a', descending: true }],
    ['the default order, newest first', { b: { $in: [0, 1, 2] } }, '-created_date', { field: 'created_date' }],
    ['several sort keys, ties in insertion order', {}, 'created_date,-b', { field: 'created_date', descending: false }],
    ['a sort on an array field (min / max element)', {}, '-tags', { field: 'tags', descending: true }],
  ])('%s by walking the sort index', (_label, filter, sort, expected) => {
    const { plan } = read(collection, service, request(filter, sort));
    expect(plan).toMatchObject({ strategy: 'index-sort', ...expected });
  });

  it('walks past rows the caller may not read, to the first ones it may', () => {
    const { result, plan } = read(collection, ana, request({}, '-a', 3));
    expect(plan).toMatchObject({ strategy: 'index-sort', field: 'a' });
    // Hers (every third record) and those of b = 1 (every fourth from 1).
    expect(result.map((view) => view.a)).toEqual([1998, 1997, 1995]);
  });

  it('counts from the index alone only for a caller who sees every record whole', () => {
    const source = sourceOf(collection, FIELDS);
    const exact = countViews(source, service, compileFilter({ b: 1 }));
    expect(exact).toMatchObject({ result: SIZE / 4, plan: { strategy: 'index-count', field: 'b' } });
    const range = countViews(source, service, compileFilter({ a: { $gte: 10, $lt: 20 } }));
    expect(range).toMatchObject({ result: 10, plan: { strategy: 'index-count', field: 'a', operator: 'range' } });
    // ana reads her own records and those of b = 1: each candidate is still viewed and filtered.
    const ruled = countViews(source, ana, compileFilter({ owner: 'owner-2' }));
    expect(ruled.plan).toMatchObject({ strategy: 'index-filter', field: 'owner' });
    expect(ruled.result).toBe(scanned(source.records, ana, request({ owner: 'owner-2' }, null, Infinity)).length);
    expect(ruled.result).toBeLessThan(SIZE / 100);
  });
});

describe('the planner falls back to the scan', () => {
  const collection = collectionOf([
    ...records().slice(0, 400),
    record({ a: 5000, b: 1 }),
    record({ a: 5001, b: 1, owner: null }),
  ]);

  it.each<[string, unknown, boolean]>([
    ['null (also matches a missing field)', { owner: null }, true],
    ['$exists: false', { owner: { $exists: false } }, true],
    ['$ne', { owner: { $ne: 'owner-1' } }, true],
    ['$nin', { owner: { $nin: ['owner-1'] } }, true],
    ['$not', { owner: { $not: { $eq: 'owner-1' } } }, true],
    ['$type null', { owner: { $type: 'null' } }, false],
    ['a nested path', { 'n.x': 1 }, false],
    ['a field no schema declares', { u: 1 }, false],
    ['only $or', { $or: [{ owner: 'owner-1' }, { b: 2 }] }, false],
  ])('for %s', (_label, filter, matchesMissing) => {
    const { result, plan } = read(collection, service, request(filter, 'u', 1000));
    expect(plan.strategy).toBe('scan');
    // The record without an owner is among the answers exactly when the condition can match a missing field.
    expect(result.some((view) => view.a === 5000)).toBe(matchesMissing);
  });

  it('for a sort on a field a field rule may hide from this caller, which sorts as missing where hidden', () => {
    const { result, plan } = read(collection, ana, request({}, '-secret', 20));
    expect(plan).toMatchObject({ strategy: 'scan' });
    expect(plan.notes.join()).toMatch(/secret.*field rule may hide/);
    expect(result.filter((view) => 'secret' in view).length).toBeLessThan(result.length);
  });

  it('for a filter that matches half the records or more, with no sort index to walk', () => {
    const { plan } = read(collection, service, request({ a: { $gte: 10 } }, 'n.x', 10));
    expect(plan).toMatchObject({ strategy: 'scan' });
    expect(plan.notes.join()).toMatch(/n\.x.*nested/);
  });

  it('yet a filter on a hidden field may use its index: candidates are checked on the view', () => {
    const stored = collectionOf([
      record({ owner: 'someone else', b: 1, secret: 'kept' }),
      record({ owner: OWNER, b: 1, secret: 'kept' }),
      ...records().slice(0, 300),
    ]);
    const { result, plan } = read(stored, ana, request({ secret: 'kept' }, null, Infinity));
    expect(plan).toMatchObject({ strategy: 'index-filter', field: 'secret' });
    expect(result.map((view) => view.owner)).toEqual([OWNER]);
    const hidden = read(stored, ana, request({ secret: null }, null, Infinity));
    expect(hidden.plan.strategy).toBe('scan');
    expect(hidden.result.map((view) => view.owner)).toContain('someone else');
  });
});

describe('indexes follow the records', () => {
  it('move an updated record, forget a deleted one, and put a re-inserted one last in insertion order', () => {
    const collection = collectionOf(records().slice(0, 300));
    read(collection, service, request({}, '-a', 1));
    const moved = { ...(collection.all()[0] as EntityRecord), a: 10_000, owner: 'moved' };
    collection.put(moved.id, moved);
    expect(read(collection, service, request({}, '-a', 1)).result).toEqual([moved]);
    expect(read(collection, service, request({ owner: 'owner-0' }, null, Infinity)).result).not.toContainEqual(moved);
    collection.remove(moved.id);
    expect(read(collection, service, request({ owner: 'moved' }, null, Infinity)).result).toEqual([]);
    collection.put(moved.id, { ...moved, b: 0, created_date: (collection.all()[5] as EntityRecord).created_date });
    const ties = read(collection, service, request({ b: 0 }, '-created_date,b', 300));
    expect(ties.plan.strategy).toMatch(/^index-/);
  });

  it('take in records loaded before and after they were built (a data dir is read with load)', () => {
    const collection = new Collection<EntityRecord>(() => undefined);
    const loaded = records().slice(0, 200);
    for (const item of loaded.slice(0, 100)) collection.load(item.id, item);
    read(collection, service, request({ owner: 'owner-1' }, null));
    for (const item of loaded.slice(100)) collection.load(item.id, item);
    const { result, plan } = read(collection, service, request({ owner: 'owner-1' }, null, Infinity));
    expect(plan).toMatchObject({ strategy: 'index-filter', field: 'owner' });
    expect(result.map((view) => view.a)).toEqual([1, 101]);
  });

  it('are rebuilt for the fields a reloaded schema declares', () => {
    const collection = collectionOf(records().slice(0, 400));
    const before = read(collection, service, request({ u: 7 }, null, Infinity));
    expect(before.plan).toMatchObject({ strategy: 'scan' });
    expect(before.plan.notes.join()).toMatch(/"u".*not indexed/);
    const reloaded = [...FIELDS.filter((field) => field !== 'owner'), 'u'];
    expect(read(collection, service, request({ u: 7 }, null, Infinity), reloaded).plan).toMatchObject({
      strategy: 'index-filter',
      field: 'u',
    });
    const { plan } = read(collection, service, request({ owner: 'owner-3' }, null, Infinity), reloaded);
    expect(plan.strategy).toBe('scan');
    expect(plan.notes.join()).toMatch(/"owner".*not indexed/);
  });
});
