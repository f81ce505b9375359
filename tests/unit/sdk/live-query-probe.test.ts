/**
 * The first watches of a client, while nobody knows whether the server holds live queries
 * (docs/LIVE-QUERIES.md, "Which kind of server"): the result comes over HTTP at once instead of
 * after the probe, a `subscribed` answer replaces it, and no snapshot older than one already shown
 * reaches a callback. The registry runs on fake parts here (a socket that only records what it is
 * asked, an HTTP read the test answers); tests/integration/realtime/watch.test.ts and
 * tests/differential run the same path on the emulator and on `base44 dev`.
 */
import type { EntityChangeEvent, EntityRecord, WatchSnapshot } from '@/lib/sdk/core/types';
import { LIVE_QUERY_PROBE_MS, LiveQueryRegistry } from '@/lib/sdk/realtime/socket/live-queries';

const record = (id: string, title = id): EntityRecord =>
  ({
    id,
    title,
    created_date: '2026-01-01T00:00:00.000Z',
    updated_date: '2026-01-01T00:00:00.000Z',
  }) as EntityRecord;

/** A registry on a connected socket whose entity rooms join at once, and HTTP reads the test answers. */
function setUp() {
  const emitted: { event: string; payload: Record<string, unknown> }[] = [];
  const roomListeners = new Set<(change: EntityChangeEvent) => void>();
  const registry = new LiveQueryRegistry({
    appId: 'app',
    isConnected: () => true,
    emit: (event, payload) => emitted.push({ event, payload }),
    subscribeToEntity: (_entity, callback, hooks) => {
      roomListeners.add(callback);
      hooks.onJoin?.();
      return () => roomListeners.delete(callback);
    },
  });
  const reads: ((entities: EntityRecord[]) => void)[] = [];
  const load = () => new Promise<EntityRecord[]>((resolve) => reads.push(resolve));
  const snapshots: string[][] = [];
  let joins = 0;
  const watch = (limit: number) =>
    registry.watch(
      'Todo',
      { limit },
      load,
      (snapshot: WatchSnapshot<EntityRecord>) => snapshots.push(snapshot.entities.map((entity) => entity.id)),
      { onJoin: () => (joins += 1) },
    );
  const asked = () => emitted.filter(({ event }) => event === 'subscribe_query').map(({ payload }) => payload);
  const answer = (queryId: unknown, entities: EntityRecord[]) =>
    registry.subscribed({ room: `entities:app:Todo:watch:${String(queryId)}`, seq: 0, entities, timestamp: 'now' });
  const change = (id: string) =>
    [...roomListeners].forEach((listener) => listener({ type: 'create', id, data: record(id), timestamp: 'now' }));
  return { registry, reads, snapshots, watch, asked, answer, change, joins: () => joins };
}

/** Lets resolved HTTP reads reach the registry. */
const settle = () => jest.advanceTimersByTimeAsync(0);

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('on a server that never answers, reads over HTTP at once and shows that result before the probe ends', async () => {
  const { reads, snapshots, watch, asked, change } = setUp();
  watch(5);
  expect(asked()).toHaveLength(1);
  expect(reads).toHaveLength(1);
  reads[0]?.([record('a')]);
  await settle();
  expect(snapshots).toEqual([['a']]);

  // The probe ends: the fallback already runs, so no second read and no repeated snapshot.
  await jest.advanceTimersByTimeAsync(LIVE_QUERY_PROBE_MS);
  expect(reads).toHaveLength(1);
  expect(snapshots).toEqual([['a']]);
  // It keeps the result: a record that may enter is read again.
  change('b');
  reads[1]?.([record('b'), record('a')]);
  await settle();
  expect(snapshots).toEqual([['a'], ['b', 'a']]);
});

it('shows only the server’s answer when it comes before the HTTP read, and later watches read nothing', async () => {
  const { reads, snapshots, watch, asked, answer } = setUp();
  watch(5);
  answer(asked()[0]?.query_id, [record('s')]);
  reads[0]?.([record('h')]);
  await settle();
  expect(snapshots).toEqual([['s']]);

  // The server holds live queries: the next query is only asked.
  watch(6);
  expect(asked()).toHaveLength(2);
  expect(reads).toHaveLength(1);
  await jest.advanceTimersByTimeAsync(LIVE_QUERY_PROBE_MS);
  expect(reads).toHaveLength(1);
});

it('asks again when an HTTP result was shown first, so an older answer never follows a newer read', async () => {
  const { registry, reads, snapshots, watch, asked, answer, joins } = setUp();
  watch(5);
  const queryId = asked()[0]?.query_id;
  reads[0]?.([record('a'), record('b')]);
  await settle();
  expect(snapshots).toEqual([['a', 'b']]);

  // Evaluated before a write that the HTTP read already saw: shown, it would take 'b' back out.
  answer(queryId, [record('a')]);
  expect(snapshots).toEqual([['a', 'b']]);
  expect(asked().map((payload) => payload.query_id)).toEqual([queryId, queryId]);
  // Edits of the first answer are not applied on top of the newer result.
  registry.update(`entities:app:Todo:watch:${String(queryId)}`, JSON.stringify({ seq: 1, remove: ['a'], put: [] }));
  expect(snapshots).toEqual([['a', 'b']]);

  // The answer asked after the read: the same result is not shown twice; then edits follow it.
  answer(queryId, [record('a'), record('b')]);
  expect(snapshots).toEqual([['a', 'b']]);
  registry.update(`entities:app:Todo:watch:${String(queryId)}`, JSON.stringify({ seq: 1, remove: ['a'], put: [] }));
  expect(snapshots).toEqual([['a', 'b'], ['b']]);
  expect(reads).toHaveLength(1);
  // Joined by the fallback, then by the server: the watcher hears it once.
  expect(joins()).toBe(1);
});
