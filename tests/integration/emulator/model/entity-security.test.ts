import { rmSync } from 'node:fs';
import { io, type Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import {
  entityProject,
  loginToken,
  SEEDED_ACCOUNTS,
  serviceTokenFor,
  startTestEmulator,
  writeEntityFile,
} from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * Row- and field-level security on every read and write path of the HTTP API and on real-time
 * events, with a project folder whose entity keeps each note to its author and hides one field.
 */

const APP = 'coming-soon';
const NOTE = {
  name: 'PrivateNote',
  type: 'object',
  properties: {
    title: { type: 'string' },
    secret: { type: 'string', rls: { read: false, write: true } },
  },
  rls: {
    create: true,
    read: { created_by: '{{user.email}}' },
    update: { created_by: '{{user.email}}' },
    delete: { created_by_id: '{{user.id}}' },
  },
};
const BASE = `/apps/${APP}/entities/PrivateNote`;
/** Everyone reads; only admins change (`write` stands for create, update and delete). */
const NOTICE = {
  name: 'Notice',
  type: 'object',
  properties: { text: { type: 'string' } },
  rls: { read: true, write: { user_condition: { role: 'admin' } } },
};
const NOTICES = `/apps/${APP}/entities/Notice`;
const service = serviceTokenFor(APP);

let root: string;
let emulator: RunningEmulator;
let api: ApiCall;
let ana: string;
let bo: string;
let admin: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  root = entityProject('security-', [
    ['private-note.jsonc', NOTE],
    ['notice.jsonc', NOTICE],
  ]);
  emulator = await startTestEmulator({ projectDir: root });
  api = apiClient(emulator);
  ana = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  bo = await loginToken(emulator, APP, SEEDED_ACCOUNTS.member.email);
  admin = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  await api('DELETE', BASE, { token: service, json: {} });
});
afterAll(async () => {
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
});

async function create(token: string, title: string): Promise<Json> {
  const response = await api('POST', BASE, { token, json: { title, secret: `${title} secret` } });
  expect(response.status).toBe(201);
  return response.body;
}

const titles = (items: Json[]) => items.map((item) => item.title).sort();

describe('row-level security', () => {
  it('shows each user only its own records, and never the hidden field, on every read', async () => {
    const anaNote = await create(ana, 'ana-1');
    const boNote = await create(bo, 'bo-1');
    expect(anaNote).toMatchObject({ title: 'ana-1', created_by: 'user@example.com', created_by_id: 'user-user' });
    expect(anaNote).not.toHaveProperty('secret');

    const list = await api<Json[]>('GET', BASE, { token: ana });
    expect(list.body.map((item) => item.title)).toEqual(['ana-1']);
    expect(list.body[0]).not.toHaveProperty('secret');
    const page = await api<{ items: Json[] }>('GET', `${BASE}/v2/list?limit=1`, { token: bo });
    expect(titles(page.body.items)).toEqual(['bo-1']);
    const distinct = await api<{ items: unknown[] }>('GET', `${BASE}/v2/list?distinct=title`, { token: ana });
    expect(distinct.body.items).toEqual(['ana-1']);
    expect((await api('GET', `${BASE}/count`, { token: ana })).body).toEqual({ count: 1 });
    const aggregate = await api<{ rows: Json[] }>('POST', `${BASE}/aggregate`, {
      token: ana,
      json: { groupBy: ['created_by'], count: true },
    });
    expect(aggregate.body.rows).toEqual([expect.objectContaining({ created_by: 'user@example.com' })]);

    expect((await api('GET', `${BASE}/${boNote.id as string}`, { token: ana })).status).toBe(404);
    const own = await api('GET', `${BASE}/${anaNote.id as string}`, { token: ana });
    expect(own.status).toBe(200);
    expect(own.body).not.toHaveProperty('secret');

    // The service role is bound by no rule.
    const all = await api<Json[]>('GET', BASE, { token: service });
    expect(titles(all.body)).toEqual(['ana-1', 'bo-1']);
    expect(all.body.every((item) => typeof item.secret === 'string')).toBe(true);
    // Anonymous visitors match no condition.
    expect((await api<Json[]>('GET', BASE)).body).toEqual([]);
  });

  it('lets visitors submit where rls.create is true, as a contact form does, answering what they sent without hidden fields', async () => {
    const submitted = await api('POST', BASE, { json: { title: 'from a visitor', secret: 's' } });
    expect(submitted.status).toBe(201);
    // Their own submission, as they may read its fields (the hidden one left out); no read afterwards.
    expect(submitted.body).toEqual({
      id: expect.any(String),
      title: 'from a visitor',
      created_date: expect.any(String),
      updated_date: expect.any(String),
      created_by: null,
      created_by_id: null,
    });
    expect((await api('GET', `${BASE}/${submitted.body.id as string}`)).status).toBe(404);
    expect((await api('DELETE', `${BASE}/${submitted.body.id as string}`)).status).toBe(404);
    const stored = await api('GET', `${BASE}/${submitted.body.id as string}`, { token: service });
    expect(stored.body).toMatchObject({ title: 'from a visitor', secret: 's', created_by: null, created_by_id: null });
  });

  it('stamps the creator itself: a client cannot claim another user as created_by or created_by_id', async () => {
    const forged = await api('POST', BASE, {
      token: ana,
      json: { title: 'forged', created_by: 'member@example.com', created_by_id: 'user-member' },
    });
    expect(forged.body).toMatchObject({ created_by: 'user@example.com', created_by_id: 'user-user' });
    expect((await api<Json[]>('GET', BASE, { token: bo })).body).toEqual([]);
  });

  it('answers a change of a record the caller may read but not change with 403; `write` covers all three', async () => {
    expect((await api('POST', NOTICES, { token: ana, json: { text: 'mine' } })).status).toBe(403);
    const notice = await api('POST', NOTICES, { token: admin, json: { text: 'Opening soon' } });
    expect(notice.status).toBe(201);
    const id = notice.body.id as string;
    expect((await api('GET', `${NOTICES}/${id}`, { token: ana })).status).toBe(200);
    const update = await api('PUT', `${NOTICES}/${id}`, { token: ana, json: { text: 'changed' } });
    expect(update).toMatchObject({ status: 403, body: { code: 'permission_denied' } });
    expect((await api('DELETE', `${NOTICES}/${id}`, { token: ana })).status).toBe(403);
    expect((await api('DELETE', NOTICES, { token: ana, json: {} })).body).toMatchObject({ deleted: 0 });
    expect((await api('DELETE', `${NOTICES}/${id}`, { token: admin })).status).toBe(200);
  });

  it('lets no filter, sort or count probe a hidden field', async () => {
    await create(ana, 'ana-1');
    const probe = encodeURIComponent(JSON.stringify({ secret: 'ana-1 secret' }));
    expect((await api('GET', `${BASE}/count?q=${probe}`, { token: ana })).body).toEqual({ count: 0 });
    const filtered = await api<Json[]>('GET', `${BASE}?q=${probe}`, { token: ana });
    expect(filtered.body).toEqual([]);
  });

  it("refuses changes to another user's records as if they did not exist", async () => {
    const boNote = await create(bo, 'bo-1');
    const id = boNote.id as string;
    expect((await api('PUT', `${BASE}/${id}`, { token: ana, json: { title: 'mine' } })).status).toBe(404);
    expect((await api('DELETE', `${BASE}/${id}`, { token: ana })).status).toBe(404);
    expect((await api('PUT', `${BASE}/bulk`, { token: ana, json: [{ id, title: 'mine' }] })).status).toBe(404);

    const many = await api('PATCH', `${BASE}/update-many`, {
      token: ana,
      json: { query: {}, data: { $set: { title: 'mine' } } },
    });
    expect(many.body).toMatchObject({ updated: 0 });
    const deleted = await api('DELETE', BASE, { token: ana, json: {} });
    expect(deleted.body).toMatchObject({ deleted: 0 });
    const upsert = await api<{ created: number; updated: number }>('POST', `${BASE}/upsert`, {
      token: ana,
      json: { records: [{ title: 'bo-1' }], key: 'title' },
    });
    expect(upsert.body).toMatchObject({ created: 1, updated: 0 });

    const stored = await api<Json>('GET', `${BASE}/${id}`, { token: service });
    expect(stored.body).toMatchObject({ title: 'bo-1', secret: 'bo-1 secret' });
  });

  it('changes the caller’s own records, keeping fields it may not write', async () => {
    const definition = {
      ...NOTE,
      properties: { ...NOTE.properties, locked: { type: 'string', rls: { write: false } } },
    };
    writeEntityFile(root, 'private-note.jsonc', definition);
    await new Promise((resolve) => setTimeout(resolve, 400)); // the reload is debounced
    try {
      const note = await api('POST', BASE, { token: ana, json: { title: 'a', locked: 'nope' } });
      expect(note.body).not.toHaveProperty('locked');
      const id = note.body.id as string;
      await api('PUT', `${BASE}/${id}`, { token: service, json: { locked: 'set by service' } });
      const updated = await api('PUT', `${BASE}/${id}`, { token: ana, json: { title: 'b', locked: 'changed' } });
      expect(updated.body).toMatchObject({ title: 'b', locked: 'set by service' });
      // An operator naming a field the caller may not write refuses the whole call.
      const refused = await api('PATCH', `${BASE}/update-many`, {
        token: ana,
        json: { query: {}, data: { $set: { locked: 'again', title: 'x' } } },
      });
      expect(refused).toMatchObject({ status: 403, body: { code: 'field_permission_denied' } });
      const many = await api('PATCH', `${BASE}/update-many`, {
        token: ana,
        json: { query: {}, data: { $set: { title: 'c' } } },
      });
      expect(many.body).toMatchObject({ updated: 1 });
      expect((await api('GET', `${BASE}/${id}`, { token: ana })).body).toMatchObject({
        title: 'c',
        locked: 'set by service',
      });
      expect((await api('DELETE', `${BASE}/${id}`, { token: ana })).status).toBe(200);
    } finally {
      writeEntityFile(root, 'private-note.jsonc', NOTE);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  });
});

describe('real-time events', () => {
  function subscribe(token: string): Promise<{ socket: Socket; events: Json[] }> {
    const socket = io(emulator.url, {
      path: '/ws-user-apps/socket.io/',
      transports: ['websocket'],
      query: { app_id: APP, token },
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const events: Json[] = [];
    socket.on('update_model', (message: { data: string }) => events.push(JSON.parse(message.data) as Json));
    return new Promise((resolve, reject) => {
      socket.once('connect_error', reject);
      socket.once('connect', () => {
        socket.emit('join', `entities:${APP}:PrivateNote`);
        resolve({ socket, events });
      });
    });
  }

  it('reach only subscribers who may read the record, without the hidden field', async () => {
    const anaSub = await subscribe(ana);
    const boSub = await subscribe(bo);
    const serviceSub = await subscribe(service);
    const room = encodeURIComponent(`entities:${APP}:PrivateNote`);
    // The helper answers once the joins landed (3 sockets in the room).
    for (let tries = 0; tries < 50; tries += 1) {
      const joined = await fetch(`${emulator.url}/api/_emulator/rooms/${room}/emit`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ event: 'noop', payload: null }),
      });
      if (((await joined.json()) as { delivered: number }).delivered === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const note = await create(ana, 'ana-live');
    await api('PUT', `${BASE}/${note.id as string}`, { token: ana, json: { title: 'ana-live-2' } });
    await api('DELETE', `${BASE}/${note.id as string}`, { token: ana });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(anaSub.events.map((event) => event.type)).toEqual(['create', 'update', 'delete']);
    expect(anaSub.events.every((event) => !Object.hasOwn(event.data as Json, 'secret'))).toBe(true);
    expect(boSub.events).toEqual([]);
    expect(serviceSub.events.map((event) => (event.data as Json).secret)).toEqual([
      'ana-live secret',
      'ana-live secret',
      'ana-live secret',
    ]);
  });
});
