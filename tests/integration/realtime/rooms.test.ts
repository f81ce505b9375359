/**
 * Room reference counting, observed on the emulator's socket.io server: subscribe, unsubscribe and
 * resubscribe produce exactly the joins and leaves they should, shared rooms are joined once, the
 * grace period absorbs remount churn, and a token change rejoins every room once on the new socket.
 */
import type { EntityChangeEvent } from '@/lib/sdk/core/types';
import { ROOM_LEAVE_GRACE_MS } from '@/lib/sdk/realtime/socket/realtime.lazy';
import { serviceTokenFor } from '@/tests/support/emulator';
import { APP, emulatorWithClients } from '@/tests/support/emulator-clients';

import { entityRoomOf, eventually, probe, sleep } from './harness';
import { roomHistory, serverEvents } from './server-observer';

jest.mock('socket.io', () =>
  jest.requireActual<typeof import('./server-observer')>('./server-observer').recordingSocketIo(),
);

const suite = emulatorWithClients();
const { clients } = suite;

let entityCounter = 0;
/** A fresh entity (and room) per test, so server histories never mix. */
function freshEntity(): { entity: string; room: string } {
  entityCounter += 1;
  const entity = `Rooms${entityCounter}`;
  return { entity, room: entityRoomOf(entity) };
}

type Change = EntityChangeEvent;
const ids = (events: Change[]) => events.map((event) => event.id);
// Longer than the grace period plus a loaded machine's scheduling delay.
const AFTER_GRACE_MS = ROOM_LEAVE_GRACE_MS + 250;

it('joins on the first subscribe, leaves after the grace period, and joins again on resubscribe', async () => {
  const { entity, room } = freshEntity();
  const client = clients.create(suite.platform.url, { token: suite.userToken });
  const first = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
  await eventually(() => roomHistory(room).length === 1, 'the join');
  expect(first.joins).toHaveLength(1);

  const stoppedAt = performance.now();
  first.stop();
  await sleep(ROOM_LEAVE_GRACE_MS / 2);
  expect(roomHistory(room)).toEqual(['join']);
  await eventually(() => roomHistory(room).length === 2, 'the leave');
  expect(roomHistory(room)).toEqual(['join', 'leave']);
  const leftAt = serverEvents({ room, kind: 'leave' })[0]?.at ?? 0;
  expect(leftAt - stoppedAt).toBeGreaterThanOrEqual(ROOM_LEAVE_GRACE_MS - 5);

  const second = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
  await eventually(() => roomHistory(room).length === 3, 'the second join');
  expect(roomHistory(room)).toEqual(['join', 'leave', 'join']);
  const created = await client.entity(entity).create({ title: 'after resubscribe' });
  await eventually(() => second.values.length === 1, 'the event');
  expect(ids(second.values)).toEqual([created.id]);
  expect(first.values).toEqual([]);
});

it('gives two subscribers of one room a single join and leaves only after both are gone', async () => {
  const { entity, room } = freshEntity();
  const client = clients.create(suite.platform.url, { token: suite.userToken });
  const first = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
  await eventually(() => roomHistory(room).length === 1, 'the join on the server');
  // The second subscriber arrives while the room is joined: it is live at once, without a join.
  const second = probe<Change>((callback, hooks) => client.entities[entity]!.subscribe(callback, hooks));
  expect(second.joins).toHaveLength(1);

  const one = await client.entity(entity).create({ n: 1 });
  await eventually(() => first.values.length === 1 && second.values.length === 1, 'both delivered');
  first.stop();
  await sleep(AFTER_GRACE_MS);
  expect(roomHistory(room)).toEqual(['join']);

  const two = await client.entity(entity).create({ n: 2 });
  await eventually(() => second.values.length === 2, 'the second event');
  expect(ids(first.values)).toEqual([one.id]);
  expect(ids(second.values)).toEqual([one.id, two.id]);

  second.stop();
  await eventually(() => roomHistory(room).length === 2, 'the leave');
  expect(roomHistory(room)).toEqual(['join', 'leave']);
});

it('absorbs an unsubscribe and resubscribe within the grace period (a React remount) without leave or join', async () => {
  const { entity, room } = freshEntity();
  const client = clients.create(suite.platform.url, { token: suite.userToken });
  const mounted = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
  await eventually(() => roomHistory(room).length === 1, 'the join');

  mounted.stop();
  const remounted = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
  // The room is still joined, so the new subscriber hears at once that it is live.
  expect(remounted.joins).toHaveLength(1);
  await sleep(AFTER_GRACE_MS);
  expect(roomHistory(room)).toEqual(['join']);

  const created = await client.entity(entity).create({ title: 'still live' });
  await eventually(() => remounted.values.length === 1, 'the event');
  expect(ids(remounted.values)).toEqual([created.id]);
});

it('treats repeated unsubscribes as one', async () => {
  const { entity, room } = freshEntity();
  const client = clients.create(suite.platform.url, { token: suite.userToken });
  const first = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
  const second = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
  await eventually(() => roomHistory(room).length === 1, 'the join');

  first.stop();
  first.stop();
  first.stop();
  await sleep(AFTER_GRACE_MS);
  expect(roomHistory(room)).toEqual(['join']);
  const created = await client.entity(entity).create({ title: 'second still listens' });
  await eventually(() => second.values.length === 1, 'the event');
  expect(ids(second.values)).toEqual([created.id]);

  second.stop();
  second.stop();
  await eventually(() => roomHistory(room).length === 2, 'the leave');
  await sleep(AFTER_GRACE_MS);
  expect(roomHistory(room)).toEqual(['join', 'leave']);
});

it('joins each room once when several subscribe before the socket has connected', async () => {
  const rooms = [freshEntity(), freshEntity(), freshEntity()];
  const client = clients.create(suite.platform.url, { token: suite.userToken });
  const probes = rooms.flatMap(({ entity }) => [
    probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks)),
    probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks)),
  ]);
  await eventually(() => probes.every((subscription) => subscription.joins.length === 1), 'every join');
  await eventually(() => rooms.every(({ room }) => roomHistory(room).length === 1), 'joins on the server');
  await sleep(100);
  for (const { room } of rooms) expect(roomHistory(room)).toEqual(['join']);
  const socketIds = new Set(rooms.map(({ room }) => serverEvents({ room, kind: 'join' })[0]?.socketId));
  expect(socketIds.size).toBe(1);
});

it('reconnects with the new token after setToken and rejoins every room exactly once', async () => {
  const rooms = [freshEntity(), freshEntity()];
  const client = clients.create(suite.platform.url, { token: null });
  const probes = rooms.map(({ entity }) =>
    probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks)),
  );
  await eventually(() => rooms.every(({ room }) => roomHistory(room).length === 1), 'anonymous joins');
  const anonymousSocket = serverEvents({ room: rooms[0]!.room, kind: 'join' })[0]!.socketId;
  expect(serverEvents({ socketId: anonymousSocket, kind: 'connect' })[0]?.token).toBeUndefined();

  client.setToken(suite.userToken, false);
  await eventually(() => rooms.every(({ room }) => roomHistory(room).length === 2), 'rejoins');
  await sleep(100);
  for (const { room } of rooms) {
    const joins = serverEvents({ room, kind: 'join' });
    expect(joins).toHaveLength(2);
    const newSocket = joins[1]!.socketId;
    expect(newSocket).not.toBe(anonymousSocket);
    expect(serverEvents({ socketId: newSocket, kind: 'connect' })[0]?.token).toBe(suite.userToken);
  }
  expect(serverEvents({ socketId: anonymousSocket, kind: 'disconnect' })).toHaveLength(1);
  for (const subscription of probes) {
    expect(subscription.disconnects).toHaveLength(1);
    expect(subscription.joins).toHaveLength(2);
  }
});

describe('service role', () => {
  it('subscribes on its own socket, authenticated as the service role, next to the user socket', async () => {
    const { entity, room } = freshEntity();
    const client = clients.create(suite.platform.url, { token: suite.userToken, serviceToken: serviceTokenFor(APP) });
    const asUser = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
    const asService = probe<Change>((callback, hooks) =>
      client.asServiceRole.entity(entity).subscribe(callback, hooks),
    );
    await eventually(() => asUser.joins.length === 1 && asService.joins.length === 1, 'both joined');
    await eventually(() => roomHistory(room).length === 2, 'one join per socket on the server');

    const created = await client.asServiceRole.entity(entity).create({ title: 'written by the service role' });
    await eventually(() => asUser.values.length === 1 && asService.values.length === 1, 'both delivered');
    expect(asService.values[0]).toMatchObject({
      type: 'create',
      id: created.id,
      data: { created_by: 'server@server.com' },
    });
    await sleep(100);
    expect(roomHistory(room)).toEqual(['join', 'join']);
  });

  it('receives events on an app that requires login, with only a service token', async () => {
    const app = 'members-only';
    const entity = `ServiceOnly${++entityCounter}`;
    const service = clients.create(suite.platform.url, { appId: app, serviceToken: serviceTokenFor(app) });
    const subscription = probe<Change>((callback, hooks) =>
      service.asServiceRole.entity(entity).subscribe(callback, hooks),
    );
    await eventually(() => roomHistory(entityRoomOf(entity, app)).length === 1, 'the join');
    const created = await service.asServiceRole.entity(entity).create({ title: 'by the service role' });
    await eventually(() => subscription.values.length === 1, 'the event');
    expect(ids(subscription.values)).toEqual([created.id]);
    expect(subscription.errors).toEqual([]);
  });

  it('subscribes from a client that has only a service token', async () => {
    const { entity, room } = freshEntity();
    const service = clients.create(suite.platform.url, { serviceToken: serviceTokenFor(APP) });
    const writer = clients.create(suite.platform.url, { token: suite.userToken });
    const subscription = probe<Change>((callback, hooks) =>
      service.asServiceRole.entity(entity).subscribe(callback, hooks),
    );
    await eventually(() => roomHistory(room).length === 1, 'the join');
    const created = await writer.entity(entity).create({ title: 'by a user' });
    await eventually(() => subscription.values.length === 1, 'the event');
    expect(ids(subscription.values)).toEqual([created.id]);
    expect(subscription.errors).toEqual([]);
  });
});
