/**
 * Real-time subscriptions against the emulator's socket.io server: entity changes, several
 * listeners, leaving rooms, malformed broadcasts, token changes and cleanup.
 */
import type { EntityChangeEvent } from '@/lib/sdk/core/types';
import { loginToken, SEEDED_ACCOUNTS, SEEDED_APPS } from '@/tests/support/emulator';

import {
  clientFor,
  emitToRoom,
  eventually,
  signedInClient,
  startEmulatorForSuite,
  waitForEmptyRoom,
  waitForRoomMembers,
  type TestClient,
} from './harness';

const platform = startEmulatorForSuite();
const clients: TestClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.cleanup();
});

async function user(appId: string = SEEDED_APPS.public): Promise<TestClient> {
  const client = await signedInClient(platform, SEEDED_ACCOUNTS.user.email, { appId });
  clients.push(client);
  return client;
}

const room = (entity: string, appId: string = SEEDED_APPS.public) => `entities:${appId}:${entity}`;

describe('entity subscriptions', () => {
  it('delivers create, update and delete of the collection as parsed events', async () => {
    const client = await user();
    const events: EntityChangeEvent<{ title?: string; done?: boolean }>[] = [];
    const stop = client.entities.Todo.subscribe((event) => events.push(event));
    await waitForRoomMembers(platform, room('Todo'));

    const created = await client.entities.Todo.create({ title: 'live', done: false });
    await client.entities.Todo.update(created.id, { done: true });
    await client.entities.Todo.delete(created.id);
    await eventually(() => (events.length >= 3 ? true : undefined));
    stop();

    expect(events.map((event) => [event.type, event.id])).toEqual([
      ['create', created.id],
      ['update', created.id],
      ['delete', created.id],
    ]);
    expect(events[1]?.data).toMatchObject({ title: 'live', done: true });
    expect(Date.parse(events[0]?.timestamp ?? '')).not.toBeNaN();
  });

  it('keeps the room while any listener remains and leaves it after the last one', async () => {
    const client = await user();
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = client.entities.Board.subscribe((event) => first.push(event.id));
    const stopSecond = client.entities.Board.subscribe((event) => second.push(event.id));
    await waitForRoomMembers(platform, room('Board'));

    const one = await client.entities.Board.create({ title: 'one' });
    await eventually(() => (first.length === 1 && second.length === 1 ? true : undefined));
    stopFirst();
    stopFirst();
    const two = await client.entities.Board.create({ title: 'two' });
    await eventually(() => (second.length === 2 ? true : undefined));
    expect(first).toEqual([one.id]);
    expect(second).toEqual([one.id, two.id]);

    stopSecond();
    await waitForEmptyRoom(platform, room('Board'));
  });

  it('skips malformed broadcasts and survives a throwing listener', async () => {
    const client = await user();
    const received: string[] = [];
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const stopThrowing = client.entities.Todo.subscribe(() => {
      throw new Error('listener bug');
    });
    const stop = client.entities.Todo.subscribe((event) => received.push(event.id));
    await waitForRoomMembers(platform, room('Todo'));

    for (const data of [
      'not json',
      JSON.stringify({ type: 'explode', id: 'x' }),
      JSON.stringify({ type: 'create' }),
      42,
      null,
    ]) {
      await emitToRoom(platform, room('Todo'), 'update_model', { room: room('Todo'), data });
    }
    await emitToRoom(platform, room('Todo'), 'update_model', {
      data: JSON.stringify({ type: 'create', id: 'no-room' }),
    });
    await emitToRoom(platform, room('Todo'), 'update_model', {
      room: room('Todo'),
      data: JSON.stringify({ type: 'create', id: 'valid', data: { id: 'valid', title: 'ok' } }),
    });
    await eventually(() => (received.length > 0 ? true : undefined));
    expect(received).toEqual(['valid']);
    expect(errors).toHaveBeenCalledWith('[platform-sdk] real-time listener failed:', expect.any(Error));
    stop();
    stopThrowing();
    errors.mockRestore();
  });

  it('unsubscribing before real-time has loaded never joins the room', async () => {
    const client = await user();
    const stop = client.entity('Draft').subscribe(() => undefined);
    stop();
    // A second subscription on another room proves the socket is up before checking the first.
    const stopOther = client.entities.Todo.subscribe(() => undefined);
    await waitForRoomMembers(platform, room('Todo'));
    expect(await emitToRoom(platform, room('Draft'), 'probe', null)).toBe(0);
    stopOther();
  });
});

describe('authentication of the socket', () => {
  it('reconnects with the new token after setToken, so protected rooms start to deliver', async () => {
    const client = clientFor(platform, { appId: SEEDED_APPS.loginRequired });
    clients.push(client);
    const ids: string[] = [];
    client.entities.Todo.subscribe((event) => ids.push(event.id));
    // Anonymous sockets may not join a login-only app's rooms: give the refused join time to happen.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await emitToRoom(platform, room('Todo', SEEDED_APPS.loginRequired), 'probe', null)).toBe(0);

    client.setToken(await loginToken(platform.emulator, SEEDED_APPS.loginRequired, SEEDED_ACCOUNTS.user.email), false);
    await waitForRoomMembers(platform, room('Todo', SEEDED_APPS.loginRequired));
    const created = await client.entities.Todo.create({ title: 'after login' });
    await eventually(() => (ids.includes(created.id) ? true : undefined));
  });

  it('cleanup closes the socket and leaves every room', async () => {
    const client = await user();
    client.entities.Todo.subscribe(() => undefined);
    await waitForRoomMembers(platform, room('Todo'));
    client.cleanup();
    await waitForEmptyRoom(platform, room('Todo'));
  });

  it('cleanup while real-time is still loading cancels the subscriptions made before it', async () => {
    const client = await user();
    client.entity('Early').subscribe(() => undefined);
    client.cleanup();
    client.entities.Todo.subscribe(() => undefined);
    await waitForRoomMembers(platform, room('Todo'));
    expect(await emitToRoom(platform, room('Early'), 'probe', null)).toBe(0);
  });
});
