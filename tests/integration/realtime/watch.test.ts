/**
 * `entities.<Name>.watch()` against the emulator's live queries (docs/LIVE-QUERIES.md): the current
 * result first, then a result equal to a fresh `filter()` after every write, records entering and
 * leaving the window of sort and limit included; many watches on one socket, identical ones shared;
 * a fresh result after a restart of the server and after a gap in its messages, with no duplicated
 * or stale snapshot; nothing after unsubscribe.
 */
import type { PlatformClient } from '@/lib/sdk/client/create-client';
import type { EntityRecord, WatchOptions, WatchSnapshot } from '@/lib/sdk/core/types';
import { emulatorWithClients } from '@/tests/support/emulator-clients';

import { emitToRoom, eventually, probe, sleep, type Probe } from './harness';
import { roomHistory, serverCount, serverEvents } from './server-observer';

jest.mock('socket.io', () =>
  jest.requireActual<typeof import('./server-observer')>('./server-observer').recordingSocketIo(),
);

interface Item {
  title: string;
  rank: number;
  group: string;
}
type Snapshot = WatchSnapshot<EntityRecord<Item>>;

const suite = emulatorWithClients({ freshFor: 'test' });
const { clients } = suite;
let entityCounter = 0;

/** A fresh entity per test, so server histories never mix. */
function freshEntity(): string {
  entityCounter += 1;
  return `Watched${entityCounter}`;
}

/** The rooms of the live queries the current server was asked for, for one entity. */
function queryRooms(entity: string): string[] {
  const server = serverCount() - 1;
  const rooms = serverEvents({ server, kind: 'subscribe_query' }).map((event) => event.room ?? '');
  return [...new Set(rooms.filter((room) => room.includes(`:${entity}:watch:`)))];
}

const SERVICE = { token: 'service-token-coming-soon' };

function watchWith(client: PlatformClient, entity: string, options: WatchOptions<Item>): Probe<Snapshot> {
  return probe<Snapshot>((callback, hooks) => client.entity<Item>(entity).watch(options, callback, hooks));
}

const last = (watched: Probe<Snapshot>) => watched.values.at(-1);

/** Waits until the latest snapshot equals what `filter()` answers now. */
async function equalsFilter(
  watched: Probe<Snapshot>,
  client: PlatformClient,
  entity: string,
  { filter, sort, limit, fields }: WatchOptions<Item>,
): Promise<EntityRecord<Item>[]> {
  let expected: EntityRecord<Item>[] = [];
  await eventually(async () => {
    expected = await client.entity<Item>(entity).filter(filter ?? {}, sort, limit, 0, fields);
    return JSON.stringify(last(watched)?.entities) === JSON.stringify(expected);
  }, 'a snapshot equal to a fresh filter()');
  return expected;
}

/** No two consecutive snapshots are equal: every delivery changed something. */
function expectNoRepeats(watched: Probe<Snapshot>): void {
  const texts = watched.values.map((snapshot) => JSON.stringify(snapshot.entities));
  expect(texts.filter((text, at) => at > 0 && text === texts[at - 1])).toEqual([]);
}

it('delivers the current result first, then follows records into and out of a sorted window', async () => {
  const entity = freshEntity();
  const writer = clients.create(suite.platform.url, SERVICE);
  const items = writer.entity<Item>(entity);
  const created = [];
  for (const rank of [10, 20, 30, 40]) created.push(await items.create({ title: `r${rank}`, rank, group: 'a' }));
  const options: WatchOptions<Item> = { filter: { group: 'a' }, sort: 'rank', limit: 2 };
  const watcher = clients.create(suite.platform.url, SERVICE);
  const watched = watchWith(watcher, entity, options);

  await equalsFilter(watched, watcher, entity, options);
  expect(watched.values).toHaveLength(1);
  expect(watched.values[0]).toMatchObject({ type: 'added' });
  expect(watched.values[0]?.entities.map((item) => item.rank)).toEqual([10, 20]);
  expect(watched.joins).toHaveLength(1);

  await items.create({ title: 'first now', rank: 5, group: 'a' });
  await equalsFilter(watched, watcher, entity, options);
  expect(last(watched)?.type).toBe('added');
  await items.update(created[0]!.id, { group: 'b' });
  expect((await equalsFilter(watched, watcher, entity, options)).map((item) => item.rank)).toEqual([5, 20]);
  expect(last(watched)?.type).toBe('removed');
  await items.delete(created[1]!.id); // 30 slides into the window
  expect((await equalsFilter(watched, watcher, entity, options)).map((item) => item.rank)).toEqual([5, 30]);
  await items.update(created[3]!.id, { rank: 1 });
  expect((await equalsFilter(watched, watcher, entity, options)).map((item) => item.rank)).toEqual([1, 5]);
  const delivered = watched.values.length;
  await items.create({ title: 'behind the window', rank: 99, group: 'a' });
  await items.create({ title: 'another group', rank: 0, group: 'c' });
  await items.update(created[2]!.id, { title: 'renamed but outside' });
  await sleep(200);
  expect(watched.values).toHaveLength(delivered);
  expect(watched.errors).toEqual([]);
  expectNoRepeats(watched);
});

it('carries many watches on one socket and shares identical ones', async () => {
  const entity = freshEntity();
  const writer = clients.create(suite.platform.url, SERVICE);
  for (let at = 0; at < 12; at += 1)
    await writer.entity<Item>(entity).create({ title: `t${at}`, rank: at, group: `g${at % 3}` });
  const server = serverCount() - 1;
  const watcher = clients.create(suite.platform.url, SERVICE);
  const queries: WatchOptions<Item>[] = [
    {},
    { sort: '-rank', limit: 3 },
    { filter: { group: 'g1' }, sort: 'title' },
    { filter: { rank: { $gte: 6 } }, fields: ['title', 'rank'], sort: 'rank' },
  ];
  const watched = queries.flatMap((options) => [
    watchWith(watcher, entity, options),
    watchWith(watcher, entity, { ...options }),
  ]);
  for (const [at, one] of watched.entries()) await equalsFilter(one, watcher, entity, queries[Math.floor(at / 2)]!);

  await writer.entity<Item>(entity).create({ title: 'new', rank: 100, group: 'g1' });
  for (const [at, one] of watched.entries()) await equalsFilter(one, watcher, entity, queries[Math.floor(at / 2)]!);
  const watcherSockets = new Set(serverEvents({ server, kind: 'subscribe_query' }).map((event) => event.socketId));
  expect(watcherSockets.size).toBe(1);
  // Two watches with the same options are one query on the server.
  expect(serverEvents({ server, kind: 'subscribe_query' })).toHaveLength(queries.length);
});

it('asks again after a restart and after a gap, never showing a duplicated or stale result', async () => {
  const entity = freshEntity();
  const options: WatchOptions<Item> = { sort: '-rank', limit: 3 };
  const watcher = clients.create(suite.platform.url, SERVICE);
  const writer = clients.create(suite.platform.url, SERVICE);
  await writer.entity<Item>(entity).create({ title: 'before', rank: 1, group: 'a' });
  const watched = watchWith(watcher, entity, options);
  await equalsFilter(watched, watcher, entity, options);

  // A gap in the query's messages: the injected edit (seq far ahead) must not be applied.
  const [room] = queryRooms(entity);
  const fake = { id: 'fake', title: 'never stored', rank: 1000, group: 'a' };
  const payload = JSON.stringify({
    query_id: room?.split(':').at(-1),
    seq: 42,
    remove: [],
    put: [{ index: 0, record: fake }],
  });
  expect(await emitToRoom(suite.platform.url, room!, 'update_model', { room, data: payload })).toBe(1);
  await eventually(() => roomHistory(room!).filter((kind) => kind === 'subscribe_query').length === 2, 'the resync');
  await equalsFilter(watched, watcher, entity, options);
  expect(watched.values.some((snapshot) => snapshot.entities.some((item) => item.id === 'fake'))).toBe(false);
  // An unreadable message: asked again too.
  await emitToRoom(suite.platform.url, room!, 'update_model', { room, data: '{not json' });
  await eventually(
    () => roomHistory(room!).filter((kind) => kind === 'subscribe_query').length === 3,
    'the second resync',
  );

  const port = await suite.platform.stop();
  await eventually(() => watched.disconnects.length === 1, 'the disconnect');
  await suite.platform.whileAway(async (url) => {
    const away = clients.create(url, SERVICE).entity<Item>(entity);
    await away.create({ title: 'while away', rank: 50, group: 'a' });
  });
  await suite.platform.startOn(port);
  await equalsFilter(watched, watcher, entity, options);
  expect(last(watched)?.entities.map((item) => item.title)).toEqual(['while away', 'before']);
  await writer.entity<Item>(entity).create({ title: 'after', rank: 60, group: 'a' });
  await equalsFilter(watched, watcher, entity, options);
  expect(watched.joins.length).toBeGreaterThanOrEqual(2);
  expectNoRepeats(watched);
  expect(watched.errors).toEqual([]);
});

it('stops delivering on unsubscribe and lets the server forget the query', async () => {
  const entity = freshEntity();
  const watcher = clients.create(suite.platform.url, SERVICE);
  const writer = clients.create(suite.platform.url, SERVICE).entity<Item>(entity);
  const watched = watchWith(watcher, entity, {});
  await equalsFilter(watched, watcher, entity, {});
  const [room] = queryRooms(entity);
  watched.stop();
  watched.stop();
  await writer.create({ title: 'unseen', rank: 1, group: 'a' });
  await eventually(() => roomHistory(room!).includes('unsubscribe_query'), 'unsubscribe_query');
  await sleep(100);
  expect(watched.values).toHaveLength(1);
  expect(roomHistory(room!)).toEqual(['subscribe_query', 'unsubscribe_query']);
});

it('reports bad arguments to onError as INVALID_ARGUMENT and asks the server nothing', async () => {
  const entity = freshEntity();
  const watcher = clients.create(suite.platform.url, SERVICE);
  const items = watcher.entity<Item>(entity);
  const errors: string[] = [];
  const onError = (error: { code?: string; message: string }) => errors.push(`${error.code}: ${error.message}`);
  items.watch(null as never, () => undefined, { onError });
  items.watch({ filter: 'done' as never }, () => undefined, { onError });
  items.watch({ limit: 2.5 }, () => undefined, { onError });
  items.watch({}, undefined as never, { onError });
  await eventually(() => errors.length === 4, 'four refusals');
  expect(errors).toEqual([
    'INVALID_ARGUMENT: watch needs options { filter, sort, fields, limit }',
    'INVALID_ARGUMENT: The filter must be an object, e.g. { status: "open" }',
    'INVALID_ARGUMENT: limit must be a whole number',
    'INVALID_ARGUMENT: watch needs a callback',
  ]);
  await sleep(100);
  expect(queryRooms(entity)).toEqual([]);
});

it('tells every watcher of a refused query why, also one that comes later', async () => {
  const watcher = clients.create(suite.platform.url, { token: suite.userToken });
  const first = probe<Snapshot>((callback, hooks) => watcher.entity<Item>('User').watch({}, callback, hooks));
  await eventually(() => first.errors.length === 1, 'the refusal');
  const later = probe<Snapshot>((callback, hooks) => watcher.entity<Item>('User').watch({}, callback, hooks));
  expect(later.errors.map((error) => error.code)).toEqual(['admin_required']);
  expect(first.errors.map((error) => error.code)).toEqual(['admin_required']);
  expect([...first.values, ...later.values]).toEqual([]);
});

it('tells a watch beyond its caller’s live rows why, through onError with live_rows_exceeded', async () => {
  const watcher = clients.create(suite.platform.url, { token: suite.userToken });
  const entity = freshEntity();
  // Distinct queries (identical ones would share one server query), each a window of 10,000 rows.
  const big = (at: number): WatchOptions<Item> => ({ filter: { rank: { $ne: -at } }, limit: 10_000 });
  const accepted = Array.from({ length: 10 }, (_, at) => watchWith(watcher, entity, big(at)));
  await eventually(() => accepted.every((one) => one.values.length === 1), 'the accepted watches');
  const over = watchWith(watcher, entity, big(10));
  await eventually(() => over.errors.length === 1, 'the refusal');
  expect(over.errors[0]).toMatchObject({ code: 'live_rows_exceeded' });
  expect(over.errors[0]?.message).toContain('at most 100,000');
  expect(over.values).toEqual([]);
  expect(accepted.flatMap((one) => one.errors)).toEqual([]);
});
