/**
 * The client-kept watch for platforms without live queries (docs/LIVE-QUERIES.md): which changes
 * cost a load over HTTP and which are decided for sure without one, that loads never overlap, and
 * the small filter and sort reading it relies on, which says "not sure" rather than guess. The
 * same path runs against the vendor's `base44 dev` in tests/differential.
 */
import type { PlatformError } from '@/lib/sdk/core/errors';
import type { EntityChangeEvent, EntityRecord, WatchOptions } from '@/lib/sdk/core/types';
import { FallbackQuery } from '@/lib/sdk/realtime/socket/live-query-fallback';
import { matchFilter, sortsAfter } from '@/lib/sdk/realtime/socket/live-query-match';
import { applyEdit } from '@/lib/sdk/realtime/socket/live-query-messages';
import type { SubscriptionHooks } from '@/lib/sdk/realtime/subscription-hooks';

const record = (id: string, fields: Record<string, unknown> = {}): EntityRecord =>
  ({
    id,
    created_date: '2026-01-01T00:00:00.000Z',
    updated_date: '2026-01-01T00:00:00.000Z',
    ...fields,
  }) as EntityRecord;

describe('matchFilter', () => {
  const task = { id: 't', status: 'open', rank: 3, done: false, tags: ['a'] };
  it.each<[string, unknown, boolean | undefined]>([
    ['no filter', undefined, true],
    ['equality', { status: 'open' }, true],
    ['inequality of another value', { status: 'closed' }, false],
    ['different types never match', { rank: '3' }, false],
    ['$in / $nin', { status: { $in: ['open', 'x'] }, rank: { $nin: [1, 2] } }, true],
    ['$ne', { status: { $ne: 'open' } }, false],
    ['number ranges', { rank: { $gt: 2, $lte: 3 } }, true],
    ['a range that fails', { rank: { $lt: 3 } }, false],
    ['$exists on a present field', { done: { $exists: true } }, true],
    ['$and with one sure false', { $and: [{ rank: 3 }, { status: 'x' }] }, false],
    ['$or with one sure true', { $or: [{ rank: 9 }, { status: 'open' }] }, true],
    ['$nor', { $nor: [{ rank: 9 }] }, true],
    ['a string range: collations differ', { status: { $gt: 'a' } }, undefined],
    ['an array field', { tags: 'a' }, undefined],
    ['a nested path', { 'meta.level': 1 }, undefined],
    ['a field the event left out', { secret: 'x' }, undefined],
    ['$exists: false on a field the event left out (it may be hidden)', { secret: { $exists: false } }, undefined],
    ['$exists: true on a field the event left out', { secret: { $exists: true } }, undefined],
    ['an operator it does not know', { status: { $regex: 'o' } }, undefined],
    ['a top-level operator it does not know', { $text: { $search: 'x' } }, undefined],
    ['an unsure part of $or, the rest false', { $or: [{ rank: 9 }, { tags: 'a' }] }, undefined],
    ['an unsure part of $and with a sure false', { $and: [{ tags: 'a' }, { rank: 9 }] }, false],
  ])('%s', (_label, filter, expected) => {
    expect(matchFilter(filter, task)).toBe(expected);
  });
});

describe('sortsAfter', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, unknown, boolean | undefined]>([
    ['a larger number, ascending', { rank: 9 }, { rank: 3 }, 'rank', true],
    ['a larger number, descending', { rank: 9 }, { rank: 3 }, '-rank', false],
    ['a tie', { rank: 3 }, { rank: 3 }, 'rank', undefined],
    ['timestamps of one format', { at: '2026-01-02T00:00:00.000Z' }, { at: '2026-01-01T00:00:00.000Z' }, '+at', true],
    ['timestamps in one offset', { at: '2026-01-01T10:00:00+02:00' }, { at: '2026-01-01T09:00:00+02:00' }, 'at', true],
    // 08:00Z is before 09:00Z, although its text sorts after: no conclusion across zones.
    [
      'timestamps in different offsets',
      { at: '2026-01-01T10:00:00+02:00' },
      { at: '2026-01-01T09:00:00+00:00' },
      'at',
      undefined,
    ],
    ['a zone against Z', { at: '2026-01-01T10:00:00+02:00' }, { at: '2026-01-01T09:00:00.000Z' }, 'at', undefined],
    ['plain strings', { title: 'b' }, { title: 'a' }, 'title', undefined],
    ['no sort (the server default)', { rank: 9 }, { rank: 3 }, undefined, undefined],
    ['a missing value', {}, { rank: 3 }, 'rank', undefined],
    ['only the first key counts', { rank: 9, title: 'a' }, { rank: 3, title: 'z' }, 'rank,title', true],
  ])('%s', (_label, candidate, last, sort, expected) => {
    expect(sortsAfter(candidate, last, sort)).toBe(expected);
  });
});

describe('applyEdit', () => {
  const list = ['a', 'b', 'c', 'd'].map((id) => record(id));
  it('drops removed and moved records, then inserts at ascending indexes', () => {
    const moved = record('d', { rank: 0 });
    const next = applyEdit(list, {
      remove: ['b'],
      put: [
        { index: 2, record: record('e') },
        { index: 0, record: moved },
      ],
    });
    expect(next?.map((item) => item.id)).toEqual(['d', 'a', 'e', 'c']);
    expect(next?.[0]).toBe(moved);
  });

  it('refuses an edit that does not fit the list', () => {
    expect(applyEdit(list, { remove: [], put: [{ index: 9, record: record('z') }] })).toBeNull();
  });
});

/** A fallback on a fake room and a fake `filter()`; every load is recorded and resolved by hand. */
function harness(options: WatchOptions, initial: EntityRecord[]) {
  let push: (change: EntityChangeEvent) => void = () => undefined;
  let hooks: SubscriptionHooks = {};
  const loads: { resolve: (list: EntityRecord[]) => void; reject: (error: unknown) => void }[] = [];
  const results: EntityRecord[][] = [];
  const errors: PlatformError[] = [];
  const fallback = new FallbackQuery(
    {
      entity: 'Task',
      options,
      load: () => new Promise<EntityRecord[]>((resolve, reject) => loads.push({ resolve, reject })),
    },
    (_entity, callback, given) => {
      push = callback;
      hooks = given;
      return () => undefined;
    },
    {
      result: (entities) => results.push(entities),
      hooks: { onJoin: () => undefined, onDisconnect: () => undefined, onError: (error) => errors.push(error) },
    },
  );
  const settle = async (list: EntityRecord[]) => {
    loads.at(-1)?.resolve(list);
    await Promise.resolve();
    await Promise.resolve();
  };
  return {
    fallback,
    loads,
    results,
    errors,
    change: (type: EntityChangeEvent['type'], data: EntityRecord) =>
      push({ type, id: data.id, data, timestamp: '2026-01-02T00:00:00.000Z' }),
    hooks: () => hooks,
    settle,
    async start() {
      hooks.onJoin?.();
      await settle(initial);
    },
  };
}

describe('FallbackQuery', () => {
  const open = (id: string, rank: number) => record(id, { status: 'open', rank });
  const window = { filter: { status: 'open' }, sort: 'rank', limit: 2 } satisfies WatchOptions;

  it('loads on every join and shows the first result', async () => {
    const run = harness(window, [open('a', 1), open('b', 2)]);
    await run.start();
    expect(run.loads).toHaveLength(1);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual(['a', 'b']);
    run.hooks().onJoin?.();
    expect(run.loads).toHaveLength(2);
  });

  it('decides for sure without a load: non-matching records, records behind a full window, deletes outside', async () => {
    const run = harness(window, [open('a', 1), open('b', 2)]);
    await run.start();
    run.change('create', record('c', { status: 'closed', rank: 0 }));
    run.change('update', open('d', 9));
    run.change('delete', open('x', 0));
    expect(run.loads).toHaveLength(1);
  });

  it('loads when a record may enter, changes inside, or leaves a full window', async () => {
    const run = harness(window, [open('a', 1), open('b', 2)]);
    await run.start();
    run.change('create', open('c', 0));
    expect(run.loads).toHaveLength(2);
    await run.settle([open('c', 0), open('a', 1)]);
    run.change('update', record('a', { status: 'open', rank: 1, title: 'renamed' }));
    expect(run.loads).toHaveLength(3);
    await run.settle([open('c', 0), open('a', 1)]);
    run.change('delete', open('c', 0));
    expect(run.loads).toHaveLength(4);
  });

  it('removes a deleted record itself when the result holds every match', async () => {
    const run = harness({ filter: { status: 'open' } }, [open('a', 1), open('b', 2)]);
    await run.start();
    run.change('delete', open('a', 1));
    expect(run.loads).toHaveLength(1);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual(['b']);
  });

  it('never overlaps loads: changes during one queue exactly one more, and its result is not shown', async () => {
    const run = harness({ filter: { status: 'open' } }, [open('a', 1)]);
    await run.start();
    run.change('create', open('b', 2));
    run.change('create', open('c', 3));
    run.change('delete', open('a', 1));
    expect(run.loads).toHaveLength(2);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual([]);
    // Read before the delete: replaced by the next load, not shown.
    await run.settle([open('a', 1), open('b', 2), open('c', 3)]);
    expect(run.loads).toHaveLength(3);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual([]);
    await run.settle([open('b', 2), open('c', 3)]);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual(['b', 'c']);
  });

  it('keeps showing new results while creates keep arriving during every load', async () => {
    const run = harness({ filter: { status: 'open' } }, [open('a', 1)]);
    await run.start();
    run.change('create', open('b', 2));
    // Each load is overtaken by one more create: its result is still newer than what is shown.
    run.change('create', open('c', 3));
    await run.settle([open('a', 1), open('b', 2)]);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual(['a', 'b']);
    expect(run.loads).toHaveLength(3);
    run.change('create', open('d', 4));
    await run.settle([open('a', 1), open('b', 2), open('c', 3)]);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(run.loads).toHaveLength(4);
    await run.settle([open('a', 1), open('b', 2), open('c', 3), open('d', 4)]);
    expect(run.results.at(-1)?.map((item) => item.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(run.loads).toHaveLength(4);
  });

  it('loads again after an update it could not read, and reports other errors', async () => {
    const run = harness(window, [open('a', 1)]);
    await run.start();
    const problem = (code: string) => Object.assign(new Error(code), { code }) as unknown as PlatformError;
    run.hooks().onError?.(problem('MALFORMED_UPDATE'));
    expect(run.loads).toHaveLength(2);
    run.hooks().onError?.(problem('forbidden_room'));
    expect(run.errors.map((error) => error.code)).toEqual(['forbidden_room']);
  });

  it('reports a failed load and tries again after the backoff, until stopped', async () => {
    jest.useFakeTimers();
    try {
      const run = harness(window, []);
      run.hooks().onJoin?.();
      run.loads[0]?.reject(Object.assign(new Error('offline'), { code: 'NETWORK_ERROR' }));
      await Promise.resolve();
      await Promise.resolve();
      expect(run.errors).toHaveLength(1);
      jest.advanceTimersByTime(1000);
      expect(run.loads).toHaveLength(2);
      run.fallback.stop();
      run.loads[1]?.reject(new Error('offline'));
      await Promise.resolve();
      jest.advanceTimersByTime(10_000);
      expect(run.loads).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
