import { io, type Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall, type Json } from '../api';

let emulator: RunningEmulator;
let api: ApiCall;
let userToken: string;
const sockets: Socket[] = [];
const APP = 'coming-soon';

beforeAll(async () => {
  emulator = await startTestEmulator();
  api = apiClient(emulator);
  userToken = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => emulator.close());

function open(query: Record<string, string>, extraHeaders?: Record<string, string>): Socket {
  const socket = io(emulator.url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    query,
    reconnection: false,
    forceNew: true,
    extraHeaders,
  });
  sockets.push(socket);
  return socket;
}

function connect(query: Record<string, string>, extraHeaders?: Record<string, string>): Promise<Socket> {
  const socket = open(query, extraHeaders);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function nextEvent<T>(
  socket: Socket,
  event: string,
  accept: (payload: T) => boolean = () => true,
  timeoutMs = 3000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!accept(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

/** Joins are not acknowledged; the emit helper reports room sizes, so poll it until the join landed. */
async function roomSize(room: string): Promise<number> {
  const { body } = await api('POST', `/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
    json: { event: 'probe', payload: null },
  });
  return body.delivered as number;
}

async function waitForRoomSize(room: string, size: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if ((await roomSize(room)) === size) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`room ${room} never reached ${size} members`);
}

async function joinAndWait(socket: Socket, room: string): Promise<void> {
  const before = await roomSize(room);
  socket.emit('join', room);
  await waitForRoomSize(room, before + 1);
}

interface UpdateModel {
  room: string;
  data: string;
}

describe('the handshake', () => {
  it('connects with app_id and a token, or anonymously to a public app', async () => {
    await expect(connect({ app_id: APP, token: userToken })).resolves.toBeDefined();
    await expect(connect({ app_id: APP })).resolves.toBeDefined();
  });

  it('treats the literal token "undefined" (what a client without a token sends) as anonymous', async () => {
    await expect(connect({ app_id: APP, token: 'undefined' })).resolves.toBeDefined();
  });

  it('fails the connection for an unknown app or a bad token', async () => {
    await expect(connect({ app_id: 'ghost-app' })).rejects.toThrow(/Unknown app ghost-app/);
    await expect(connect({ app_id: APP, token: 'forged.token.value' })).rejects.toThrow(/invalid or has expired/);
    await expect(connect({})).rejects.toThrow(/Unknown app/);
  });

  it("accepts a browser origin of the app's site", async () => {
    await expect(connect({ app_id: APP }, { Origin: 'http://localhost:3000' })).resolves.toMatchObject({
      connected: true,
    });
  });

  it('accepts a page on another loopback port (a dev server of the app)', async () => {
    await expect(connect({ app_id: APP }, { Origin: 'http://localhost:5173' })).resolves.toMatchObject({
      connected: true,
    });
  });

  it('refuses a browser origin that is not allowed', async () => {
    await expect(connect({ app_id: APP }, { Origin: 'https://evil.example.com' })).rejects.toThrow();
  });
});

describe('entity rooms', () => {
  it('receive update_model for create, update and delete with the record as a JSON string', async () => {
    const socket = await connect({ app_id: APP, token: userToken });
    const room = `entities:${APP}:Lamp`;
    await joinAndWait(socket, room);

    const created = nextEvent<UpdateModel>(socket, 'update_model');
    const { body: record } = await api('POST', entityPath(APP, 'Lamp'), { json: { on: true }, token: userToken });
    const createEvent = await created;
    expect(createEvent.room).toBe(room);
    expect(typeof createEvent.data).toBe('string');
    expect(JSON.parse(createEvent.data)).toEqual({
      type: 'create',
      id: record.id,
      data: record,
      timestamp: expect.any(String),
    });

    const updated = nextEvent<UpdateModel>(socket, 'update_model');
    await api('PUT', entityPath(APP, 'Lamp', `/${record.id as string}`), { json: { on: false }, token: userToken });
    expect(JSON.parse((await updated).data)).toMatchObject({ type: 'update', id: record.id, data: { on: false } });

    const deleted = nextEvent<UpdateModel>(socket, 'update_model');
    await api('DELETE', entityPath(APP, 'Lamp', `/${record.id as string}`), { token: userToken });
    expect(JSON.parse((await deleted).data)).toMatchObject({ type: 'delete', id: record.id });
  });

  it('broadcast every record of a bulk create and a delete-many', async () => {
    const socket = await connect({ app_id: APP });
    await joinAndWait(socket, `entities:${APP}:Batch`);
    const events: Json[] = [];
    socket.on('update_model', (message: UpdateModel) => events.push(JSON.parse(message.data) as Json));
    await api('POST', entityPath(APP, 'Batch', '/bulk'), { json: [{ n: 1 }, { n: 2 }], token: userToken });
    await api('DELETE', entityPath(APP, 'Batch'), { json: {}, token: userToken });
    for (let attempt = 0; attempt < 100 && events.length < 4; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events.map((event) => event.type)).toEqual(['create', 'create', 'delete', 'delete']);
  });

  it('stop arriving after leave', async () => {
    const socket = await connect({ app_id: APP });
    const room = `entities:${APP}:Quiet`;
    await joinAndWait(socket, room);
    socket.emit('leave', room);
    await waitForRoomSize(room, 0);
    const received: unknown[] = [];
    socket.on('update_model', (message: unknown) => received.push(message));
    await api('POST', entityPath(APP, 'Quiet'), { json: { a: 1 }, token: userToken });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(received).toEqual([]);
  });
});

describe('bad joins get an error event', () => {
  it.each([
    ['a room of another app', `entities:members-only:Task`, 'forbidden_room'],
    ['a room of an unknown app', 'entities:ghost-app:Task', 'app_not_found'],
    ['an unknown room kind', 'chat:general', 'unknown_room'],
    ['a malformed entity room', 'entities:coming-soon', 'unknown_room'],
    ['an invalid entity name', `entities:${APP}:no-dashes`, 'invalid_entity'],
    ['the User room as a plain user', `entities:${APP}:User`, 'admin_required'],
    ['an unknown conversation', '/agent-conversations/000000000000000000000000', 'conversation_not_found'],
  ])('%s', async (_label, room, code) => {
    const socket = await connect({ app_id: APP, token: userToken });
    const error = nextEvent<Json>(socket, 'error');
    socket.emit('join', room);
    expect(await error).toEqual({ message: expect.any(String), code, room });
    expect(await roomSize(room)).toBe(0);
  });

  it('a room name that is not a string', async () => {
    const socket = await connect({ app_id: APP });
    const error = nextEvent<Json>(socket, 'error');
    socket.emit('join', { room: 'x' });
    expect(await error).toMatchObject({ code: 'invalid_room', room: null });
  });

  it('an anonymous join on a login-only app', async () => {
    const socket = await connect({ app_id: 'members-only' });
    const error = nextEvent<Json>(socket, 'error');
    socket.emit('join', 'entities:members-only:Task');
    expect(await error).toMatchObject({ code: 'auth_required' });
  });

  it("someone else's conversation", async () => {
    const adminToken = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
    const { body: conversation } = await api('POST', `/apps/${APP}/agents/conversations`, {
      json: { agent_name: 'x' },
      token: adminToken,
    });
    const socket = await connect({ app_id: APP, token: userToken });
    const error = nextEvent<Json>(socket, 'error');
    socket.emit('join', `/agent-conversations/${conversation.id as string}`);
    expect(await error).toMatchObject({ code: 'conversation_not_found' });
  });
});

describe('conversation rooms', () => {
  it('receive the whole conversation with the new message for the user message and the reply', async () => {
    const { body: conversation } = await api('POST', `/apps/${APP}/agents/conversations`, {
      json: { agent_name: 'guide' },
      token: userToken,
    });
    const room = `/agent-conversations/${conversation.id as string}`;
    const socket = await connect({ app_id: APP, token: userToken });
    await joinAndWait(socket, room);
    const updates: Json[] = [];
    socket.on('update_model', (message: UpdateModel) => {
      expect(message.room).toBe(room);
      updates.push(JSON.parse(message.data) as Json);
    });
    await api('POST', `/apps/${APP}/agents/conversations/${conversation.id as string}/messages`, {
      json: { content: 'where am I?' },
      token: userToken,
    });
    for (let attempt = 0; attempt < 100 && updates.length < 2; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatchObject({
      id: conversation.id,
      agent_name: 'guide',
      _message: { role: 'user', content: 'where am I?' },
    });
    expect(updates[0]?.messages).toHaveLength(1);
    expect(updates[1]).toMatchObject({
      _message: { role: 'assistant', content: expect.stringContaining('local platform emulator') },
    });
    expect(updates[1]?.messages).toHaveLength(2);
  });

  it('admit the service role to any conversation', async () => {
    const { body: conversation } = await api('POST', `/apps/${APP}/agents/conversations`, {
      json: { agent_name: 'guide' },
      token: userToken,
    });
    const socket = await connect({ app_id: APP, token: serviceTokenFor(APP) });
    await joinAndWait(socket, `/agent-conversations/${conversation.id as string}`);
  });
});

describe('the raw emit helper', () => {
  it('delivers any event and payload to a room, for fault tests of clients', async () => {
    const socket = await connect({ app_id: APP });
    const room = `entities:${APP}:Injected`;
    await joinAndWait(socket, room);
    const received = nextEvent<unknown>(socket, 'update_model');
    const { body } = await api('POST', `/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
      json: { event: 'update_model', payload: { room, data: '{not json' } },
    });
    expect(body).toMatchObject({ delivered: 1 });
    expect(await received).toEqual({ room, data: '{not json' });
  });

  it('refuses reserved events and missing fields with 400', async () => {
    const path = `/_emulator/rooms/${encodeURIComponent('entities:x:Y')}/emit`;
    expect((await api('POST', path, { json: { event: 'disconnect', payload: null } })).status).toBe(400);
    expect((await api('POST', path, { json: { event: 'x' } })).status).toBe(400);
    expect((await api('POST', path, { json: { payload: 1 } })).status).toBe(400);
  });
});
