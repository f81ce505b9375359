/**
 * @jest-environment ./tests/support/jsdom-with-node-fetch.cjs
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
// React hooks need a DOM (jsdom); they run here, beside the other tests that need real servers.
// Node export conditions: with jsdom's default "browser" condition, `ws` (used by socket.io-client
// in Node and by the emulator's socket.io server) resolves to its browser stub and nothing connects.
// The hooks still render in jsdom; only packages pick their Node builds.
/**
 * useLiveEntityList against the real emulator, built on `watch()`: the server's live query delivers
 * the first result and every change (filtered, sorted and limited lists included) with no HTTP read
 * beyond the one of a client's first watch;
 * a fresh result after a restart and after an unreadable update; one shared query, remount churn,
 * the service role, and HTTP data when the watch is refused.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';

import { useLiveEntityList, type EntitySource, type LiveListQuery } from '@/lib/data/use-live-entity-list';
import type { EntityRecord } from '@/lib/sdk';
import { emitToRoom, eventually, sleep } from '@/tests/integration/realtime/harness';
import { roomHistory, serverEvents } from '@/tests/integration/realtime/server-observer';
import { SEEDED_ACCOUNTS, serviceTokenFor } from '@/tests/support/emulator';
import { APP, emulatorWithClients } from '@/tests/support/emulator-clients';

import './real-server-waits';

import { countedClient, FreshCache } from './live-support';

jest.mock('socket.io', () =>
  jest
    .requireActual<typeof import('@/tests/integration/realtime/server-observer')>(
      '@/tests/integration/realtime/server-observer',
    )
    .recordingSocketIo(),
);

type Todo = { title: string; done?: boolean };
const suite = emulatorWithClients();
const { clients } = suite;

let entityCounter = 0;
const freshEntity = () => `LiveList${(entityCounter += 1)}`;

/** The room of the live query the server was asked for, for an entity (one per entity in these tests). */
async function queryRoomOf(entity: string): Promise<string> {
  return eventually(
    () => serverEvents({ kind: 'subscribe_query' }).find((event) => event.room?.includes(`:${entity}:watch:`))?.room,
    `the live query of ${entity}`,
  );
}

/** What the server lists right now for the same query. */
async function serverList(
  entity: string,
  query: { filter?: Record<string, unknown>; sort?: string; limit?: number } = {},
) {
  const handler = clients.create(suite.platform.url, { token: suite.userToken }).entity(entity);
  return query.filter ? handler.filter(query.filter, query.sort, query.limit) : handler.list(query.sort, query.limit);
}

/**
 * The hook with `data`, `error` and `live` read during render, as a component would: SWR only
 * re-renders for fields that were read, so a test reading them later would see stale values.
 */
function useList<T extends object = Todo>(
  source: EntitySource | null,
  entity: string | null,
  query?: LiveListQuery<T>,
) {
  const { data, error, live } = useLiveEntityList<T>(source, entity, query);
  return { data, error, live };
}

/**
 * A client's first watch reads its result over HTTP once while it cannot know yet whether the
 * server holds live queries (docs/LIVE-QUERIES.md, "Which kind of server"); nothing after reads.
 */
const FIRST_WATCH_READS = 1;

const titles = (records: EntityRecord<Todo>[] | undefined) => records?.map((record) => record.title);

it('shows the watch’s first result, then its creates, updates and deletes, without another HTTP read', async () => {
  const entity = freshEntity();
  const writer = clients.create(suite.platform.url, { token: suite.userToken }).entity<Todo>(entity);
  const first = await writer.create({ title: 'first' });
  const second = await writer.create({ title: 'second' });
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);

  const { result } = renderHook(() => useList(viewer.client, entity), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));
  await waitFor(() => expect(titles(result.current.data)).toEqual(['second', 'first']));

  await act(async () => {
    await writer.create({ title: 'third' });
    await writer.update(first.id, { title: 'first, edited' });
    await writer.delete(second.id);
  });
  await waitFor(() => expect(titles(result.current.data)).toEqual(['third', 'first, edited']));
  expect(result.current.data).toEqual(await serverList(entity));
  expect(viewer.reads(`/entities/${entity}`)).toBe(FIRST_WATCH_READS);
  expect(result.current.live.error).toBeUndefined();
});

it('follows a filter, sort and limit as records enter and leave the window, still without more HTTP reads', async () => {
  const entity = freshEntity();
  const writer = clients.create(suite.platform.url, { token: suite.userToken }).entity<Todo>(entity);
  const b = await writer.create({ title: 'b', done: false });
  await writer.create({ title: 'z', done: true });
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const query = { filter: { done: false }, sort: 'title', limit: 2 } as const;

  const { result } = renderHook(() => useList<Todo>(viewer.client, entity, query), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));
  await waitFor(() => expect(titles(result.current.data)).toEqual(['b']));

  await act(async () => {
    await writer.create({ title: 'a', done: false });
    await writer.create({ title: 'c', done: false });
    await writer.update(b.id, { done: true });
  });
  await waitFor(() => expect(titles(result.current.data)).toEqual(['a', 'c']));
  expect(result.current.data).toEqual(await serverList(entity, query));
  expect(viewer.reads(`/entities/${entity}`)).toBe(FIRST_WATCH_READS);
});

it('ends equal to the server after a restart during which the data changed', async () => {
  const entity = freshEntity();
  const writer = clients.create(suite.platform.url, { token: suite.userToken }).entity<Todo>(entity);
  const kept = await writer.create({ title: 'kept' });
  const doomed = await writer.create({ title: 'doomed' });
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const { result } = renderHook(() => useList(viewer.client, entity), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));
  await waitFor(() => expect(titles(result.current.data)).toEqual(['doomed', 'kept']));

  const port = await act(() => suite.platform.stop());
  await waitFor(() => expect(result.current.live.status).toBe('reconnecting'));
  await act(() =>
    suite.platform.whileAway(async (url) => {
      const away = clients.create(url, { token: suite.userToken }).entity<Todo>(entity);
      await away.create({ title: 'created while away' });
      await away.update(kept.id, { title: 'kept, edited while away' });
      await away.delete(doomed.id);
    }),
  );
  await act(() => suite.platform.startOn(port));

  await waitFor(() => expect(result.current.live.status).toBe('live'));
  await waitFor(() => expect(titles(result.current.data)).toEqual(['created while away', 'kept, edited while away']));
  expect(result.current.data).toEqual(await serverList(entity));
});

it('shares one live query between two components and survives a remount (and StrictMode) without asking again', async () => {
  const entity = freshEntity();
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const strictFreshCache = ({ children }: { children: ReactNode }) => (
    <StrictMode>
      <FreshCache>{children}</FreshCache>
    </StrictMode>
  );
  const { result, rerender } = renderHook(
    ({ mounted }: { mounted: boolean }) => {
      const one = useList(viewer.client, mounted ? entity : null);
      const two = useList(viewer.client, entity);
      return { one, two };
    },
    { wrapper: strictFreshCache, initialProps: { mounted: true } },
  );
  await waitFor(() => expect(result.current.one.live.status).toBe('live'));
  const room = await queryRoomOf(entity);
  expect(roomHistory(room)).toEqual(['subscribe_query']);

  rerender({ mounted: false });
  rerender({ mounted: true });
  const created = await act(() =>
    clients.create(suite.platform.url, { token: suite.userToken }).entity<Todo>(entity).create({ title: 'shared' }),
  );
  await waitFor(() => expect(result.current.one.data?.map((record) => record.id)).toEqual([created.id]));
  expect(result.current.two.data).toEqual(result.current.one.data);
  await act(() => sleep(600));
  expect(roomHistory(room)).toEqual(['subscribe_query']);
});

it('lets the server forget the query after the last component unmounts', async () => {
  const entity = freshEntity();
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const { result, unmount } = renderHook(() => useList(viewer.client, entity), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));
  const room = await queryRoomOf(entity);
  unmount();
  await waitFor(() => expect(roomHistory(room)).toEqual(['subscribe_query', 'unsubscribe_query']));
});

it('works with the service role of a client that has no user', async () => {
  const entity = freshEntity();
  const service = countedClient(clients, suite.platform.url, null, serviceTokenFor(APP));
  const { result } = renderHook(() => useList(service.client.asServiceRole, entity), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));
  const created = await act(() =>
    service.client.asServiceRole.entity<Todo>(entity).create({ title: 'by the service' }),
  );
  await waitFor(() => expect(result.current.data?.map((record) => record.id)).toEqual([created.id]));
  expect(result.current.data?.[0]?.created_by).toBe('server@server.com');
});

it('asks for a fresh result after an update it cannot read, and stays equal to the server', async () => {
  const entity = freshEntity();
  const writer = clients.create(suite.platform.url, { token: suite.userToken }).entity<Todo>(entity);
  await writer.create({ title: 'kept' });
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const { result } = renderHook(() => useList(viewer.client, entity), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));
  const room = await queryRoomOf(entity);

  await act(() => emitToRoom(suite.platform.url, room, 'update_model', { room, data: '{broken' }));
  await waitFor(() => expect(roomHistory(room)).toEqual(['subscribe_query', 'subscribe_query']));
  await act(() => writer.create({ title: 'after the resync' }));
  await waitFor(() => expect(titles(result.current.data)).toEqual(['after the resync', 'kept']));
  expect(result.current.live.status).toBe('live');
  expect(result.current.data).toEqual(await serverList(entity));
  expect(viewer.reads(`/entities/${entity}`)).toBe(FIRST_WATCH_READS);
});

it('shows a refused watch as failed and the list from HTTP', async () => {
  // Users may read their own User record over HTTP but not follow the User collection.
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const { result } = renderHook(() => useList<{ email: string }>(viewer.client, 'User'), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('failed'));
  expect(result.current.live.error?.code).toBe('admin_required');
  await waitFor(() => expect(result.current.data?.map((record) => record.email)).toEqual([SEEDED_ACCOUNTS.user.email]));
});

it('loads nothing and subscribes to nothing without a client or entity name', async () => {
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const { result } = renderHook(() => [useList(null, 'Todo'), useList(viewer.client, null)], {
    wrapper: FreshCache,
  });
  await act(() => sleep(200));
  for (const response of result.current) {
    expect(response.data).toBeUndefined();
    expect(response.live.status).toBe('connecting');
  }
  expect(viewer.reads('')).toBe(0);
});
