/**
 * What the server sends is not trusted: malformed and oversize `update_model` payloads, `error`
 * events, refused joins and refused connections reach the error listeners of the rooms concerned,
 * never throw out of a socket handler, and never stop other subscribers from receiving updates.
 * Over-long handshake URLs are refused before anything is sent.
 */
import type { EntityChangeEvent } from '@/lib/sdk/core/types';
import { socketHandshakeUrl } from '@/lib/sdk/realtime/socket/handshake';
import {
  MAX_SOCKET_URL_LENGTH,
  MAX_UPDATE_DATA_LENGTH,
  RealtimeErrorCodes,
} from '@/lib/sdk/realtime/socket/realtime.lazy';
import { APP, emulatorWithClients } from '@/tests/support/emulator-clients';

import { emitToRoom, entityRoomOf, eventually, probe, sleep } from './harness';
import { roomHistory, serverEvents } from './server-observer';

jest.mock('socket.io', () =>
  jest.requireActual<typeof import('./server-observer')>('./server-observer').recordingSocketIo(),
);

// Its afterEach cleans up the clients before the one below checks the console.
const suite = emulatorWithClients();
const { clients } = suite;
let consoleError: jest.SpyInstance;

beforeEach(() => {
  consoleError = jest.spyOn(console, 'error');
});
afterEach(() => {
  // Nothing the server sent may have blown up inside a socket handler.
  expect(consoleError).not.toHaveBeenCalledWith('[platform-sdk] real-time handler failed:', expect.anything());
  consoleError.mockRestore();
});

type Change = EntityChangeEvent;
const codes = (errors: { code?: string }[]) => errors.map((error) => error.code);

describe('malformed and oversize updates', () => {
  it('reports each bad update to the room error listeners and keeps delivering to every subscriber', async () => {
    const entity = 'FaultyFeed';
    const room = entityRoomOf(entity);
    const reporting = clients.create(suite.platform.url, { token: suite.userToken });
    const plain = clients.create(suite.platform.url, { token: suite.userToken });
    const watched = probe<Change>((callback, hooks) => reporting.entity(entity).subscribe(callback, hooks));
    const elsewhere = probe<Change>((callback, hooks) => reporting.entity('QuietFeed').subscribe(callback, hooks));
    const other: Change[] = [];
    plain.entity(entity).subscribe((event) => other.push(event));
    await eventually(() => roomHistory(room).length === 2 && roomHistory(entityRoomOf('QuietFeed')).length === 1);

    const bad: [string, unknown][] = [
      ['not JSON', '{"type": "create", "id":'],
      ['an unknown type', JSON.stringify({ type: 'explode', id: 'x' })],
      ['no id', JSON.stringify({ type: 'update', data: { title: 'no id' } })],
      ['a number', 42],
      ['null', null],
      ['a JSON array', '[1,2,3]'],
      ['oversize data', `"${'x'.repeat(MAX_UPDATE_DATA_LENGTH)}"`],
    ];
    for (const [, data] of bad)
      expect(await emitToRoom(suite.platform.url, room, 'update_model', { room, data })).toBe(2);
    // A large update under the limit is still an update.
    const bulky = { id: 'bulky', title: 'y'.repeat(1_000_000) };
    await emitToRoom(suite.platform.url, room, 'update_model', {
      room,
      data: JSON.stringify({ type: 'update', id: 'bulky', data: bulky }),
    });
    const created = await plain.entity(entity).create({ title: 'after the garbage' });

    await eventually(() => watched.values.length === 2 && other.length === 2, 'the valid updates');
    expect(watched.values.map((event) => event.id)).toEqual(['bulky', created.id]);
    expect(other.map((event) => event.id)).toEqual(['bulky', created.id]);
    expect(codes(watched.errors)).toEqual([
      ...bad.slice(0, -1).map(() => RealtimeErrorCodes.malformedUpdate),
      RealtimeErrorCodes.updateTooLarge,
    ]);
    expect(watched.errors[0]?.message).toContain(room);
    expect(watched.errors.at(-1)?.message).toMatch(/over the limit of 5000000/);
    // Errors of one room are not another room's business.
    expect(elsewhere.errors).toEqual([]);
  });

  it('reports envelopes that name no room to every subscriber of the socket, then carries on', async () => {
    const entity = 'EnvelopeFeed';
    const room = entityRoomOf(entity);
    const client = clients.create(suite.platform.url, { token: suite.userToken });
    const first = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
    const second = probe<Change>((callback, hooks) => client.entity('EnvelopeOther').subscribe(callback, hooks));
    await eventually(() => roomHistory(room).length === 1 && roomHistory(entityRoomOf('EnvelopeOther')).length === 1);

    for (const payload of ['a bare string', null, 7, [room, 'x'], { data: '{}' }, { room: 42, data: '{}' }]) {
      await emitToRoom(suite.platform.url, room, 'update_model', payload);
    }
    const created = await client.entity(entity).create({ title: 'fine' });
    await eventually(() => first.values.length === 1, 'the valid update');
    expect(first.values[0]?.id).toBe(created.id);
    // Who missed what is unknowable, so everyone on the socket hears about it.
    expect(codes(first.errors)).toEqual(Array(6).fill(RealtimeErrorCodes.malformedUpdate));
    expect(codes(second.errors)).toEqual(Array(6).fill(RealtimeErrorCodes.malformedUpdate));
  });

  it('keeps other subscribers going when one subscriber throws', async () => {
    const entity = 'ThrowingFeed';
    const client = clients.create(suite.platform.url, { token: suite.userToken });
    consoleError.mockImplementation(() => undefined);
    client.entity(entity).subscribe(() => {
      throw new Error('a buggy component');
    });
    const healthy = probe<Change>((callback, hooks) => client.entity(entity).subscribe(callback, hooks));
    await eventually(() => roomHistory(entityRoomOf(entity)).length === 1);
    const created = await client.entity(entity).create({ title: 'x' });
    await eventually(() => healthy.values.length === 1, 'the update');
    expect(healthy.values[0]?.id).toBe(created.id);
    expect(consoleError).toHaveBeenCalledWith('[platform-sdk] real-time listener failed:', expect.any(Error));
  });
});

describe('server errors', () => {
  it('delivers an error event naming a room to that room only, and one naming none to everyone', async () => {
    const client = clients.create(suite.platform.url, { token: suite.userToken });
    const named = probe<Change>((callback, hooks) => client.entity('ErrorNamed').subscribe(callback, hooks));
    const bystander = probe<Change>((callback, hooks) => client.entity('ErrorBystander').subscribe(callback, hooks));
    const room = entityRoomOf('ErrorNamed');
    await eventually(() => roomHistory(room).length === 1 && roomHistory(entityRoomOf('ErrorBystander')).length === 1);

    await emitToRoom(suite.platform.url, room, 'error', { message: 'Room is closing', code: 'room_closing', room });
    await emitToRoom(suite.platform.url, room, 'error', 17);
    await eventually(() => named.errors.length === 2 && bystander.errors.length === 1, 'the errors');
    expect(named.errors.map((error) => [error.code, error.message])).toEqual([
      ['room_closing', 'Room is closing'],
      [RealtimeErrorCodes.serverError, 'The real-time server reported an error'],
    ]);
    expect(codes(bystander.errors)).toEqual([RealtimeErrorCodes.serverError]);
  });

  it('reports a refused join to its subscribers, including later ones, while other rooms keep working', async () => {
    // Anonymous callers may not follow the User collection.
    const client = clients.create(suite.platform.url, { token: null });
    const refused = probe<Change>((callback, hooks) => client.entity('User').subscribe(callback, hooks));
    const allowed = probe<Change>((callback, hooks) => client.entity('OpenFeed').subscribe(callback, hooks));
    await eventually(() => refused.errors.length === 1, 'the refusal');
    expect(refused.errors[0]).toMatchObject({ code: 'admin_required', name: 'Base44Error' });

    const late = probe<Change>((callback, hooks) => client.entity('User').subscribe(callback, hooks));
    expect(codes(late.errors)).toEqual(['admin_required']);
    expect(late.joins).toEqual([]);
    const writer = clients.create(suite.platform.url, { token: suite.userToken });
    const created = await writer.entity('OpenFeed').create({ title: 'ok' });
    await eventually(() => allowed.values.length === 1, 'the update');
    expect(allowed.values[0]?.id).toBe(created.id);
    expect(allowed.errors).toEqual([]);
  });

  it('reports a connection the server refuses (an invalid token) to every subscriber', async () => {
    const client = clients.create(suite.platform.url, { token: 'not-a-real-token' });
    const first = probe<Change>((callback, hooks) => client.entity('RefusedA').subscribe(callback, hooks));
    const second = probe<Change>((callback, hooks) => client.entity('RefusedB').subscribe(callback, hooks));
    await eventually(() => first.errors.length === 1 && second.errors.length === 1, 'the refusal');
    expect(codes(first.errors)).toEqual(['invalid_token']);
    expect(first.errors[0]?.message).toBe('The access token is invalid or has expired');
    expect(first.joins).toEqual([]);
  });
});

describe('socket URL length limit', () => {
  const query = (token: string) => ({ app_id: APP, token });
  /** A token that makes the handshake URL exactly `length` characters long. */
  function tokenForUrlLength(length: number): string {
    const base = socketHandshakeUrl(suite.platform.url, '/ws-user-apps/socket.io/', query('')).length;
    return 't'.repeat(length - base);
  }
  const handshakesWith = (token: string) =>
    serverEvents({ kind: 'handshake' }).filter((event) => event.token === token);

  it('computes the URL exactly as socket.io-client sends it', async () => {
    const token = `${suite.userToken}`;
    const client = clients.create(suite.platform.url, { token });
    probe<Change>((callback, hooks) => client.entity('UrlShape').subscribe(callback, hooks));
    await eventually(() => handshakesWith(token).length > 0, 'the handshake');
    const seen = handshakesWith(token)[0]?.url ?? '';
    const origin = suite.platform.url.replace(/^http/, 'ws');
    expect(`${origin}${seen}`).toBe(socketHandshakeUrl(suite.platform.url, '/ws-user-apps/socket.io/', query(token)));
  });

  it('sends a URL of exactly 8000 characters and refuses one of 8001 without sending it', async () => {
    const fits = tokenForUrlLength(MAX_SOCKET_URL_LENGTH);
    const tooLong = tokenForUrlLength(MAX_SOCKET_URL_LENGTH + 1);
    const fitting = probe<Change>((callback, hooks) =>
      clients.create(suite.platform.url, { token: fits }).entity('UrlA').subscribe(callback, hooks),
    );
    const refused = probe<Change>((callback, hooks) =>
      clients.create(suite.platform.url, { token: tooLong }).entity('UrlA').subscribe(callback, hooks),
    );

    // The fitting one reaches the server (which rejects the made-up token); the long one never does.
    await eventually(() => fitting.errors.length === 1 && refused.errors.length === 1, 'both outcomes');
    expect(codes(fitting.errors)).toEqual(['invalid_token']);
    expect(handshakesWith(fits)).toHaveLength(1);
    expect(codes(refused.errors)).toEqual([RealtimeErrorCodes.urlTooLong]);
    expect(refused.errors[0]?.message).toMatch(/8001 characters, over the limit of 8000, so it was not sent/);
    await sleep(300);
    expect(handshakesWith(tooLong)).toEqual([]);
  });

  it('refuses a token change that makes the URL too long, and connects again after a usable one', async () => {
    const client = clients.create(suite.platform.url, { token: suite.userToken });
    const subscription = probe<Change>((callback, hooks) => client.entity('UrlSwap').subscribe(callback, hooks));
    const room = entityRoomOf('UrlSwap');
    await eventually(() => roomHistory(room).length === 1, 'the join');

    const tooLong = tokenForUrlLength(MAX_SOCKET_URL_LENGTH + 500);
    client.setToken(tooLong, false);
    expect(codes(subscription.errors)).toEqual([RealtimeErrorCodes.urlTooLong]);
    expect(subscription.disconnects).toHaveLength(1);
    const late = probe<Change>((callback, hooks) => client.entity('UrlSwapLate').subscribe(callback, hooks));
    expect(codes(late.errors)).toEqual([RealtimeErrorCodes.urlTooLong]);
    await sleep(1800);
    expect(handshakesWith(tooLong)).toEqual([]);

    client.setToken(suite.userToken, false);
    await eventually(
      () => roomHistory(room).length === 2 && roomHistory(entityRoomOf('UrlSwapLate')).length === 1,
      'rejoins',
    );
    const created = await client.entity('UrlSwap').create({ title: 'back' });
    await eventually(() => subscription.values.length === 1, 'the update');
    expect(subscription.values[0]?.id).toBe(created.id);
  });
});
