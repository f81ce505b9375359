import { rmSync } from 'node:fs';
import { io, type Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { DEFAULT_SEED_PATH } from '@/emulator/seed/seed';
import {
  entityProject,
  loginToken,
  SEEDED_ACCOUNTS,
  serviceTokenFor,
  startTestEmulator,
} from '@/tests/support/emulator';
import { eventually } from '@/tests/support/waits';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * The emulator's live queries on the wire (docs/LIVE-QUERIES.md), with a raw socket.io client: the
 * first result and every edit after it keep a client's copy equal to a fresh `filter()` over HTTP,
 * as records enter and leave the window; row and field rules apply to every delivery; bad options,
 * foreign apps and undefined entities are refused with an error naming the query's room.
 */

const APP = 'coming-soon';
const TASK = {
  name: 'Task',
  type: 'object',
  properties: { title: { type: 'string' }, rank: { type: 'number' }, group: { type: 'string' } },
};
/** Each note only to its author; `secret` to nobody. */
const NOTE = {
  name: 'PrivateNote',
  type: 'object',
  properties: { title: { type: 'string' }, secret: { type: 'string', rls: { read: false, write: true } } },
  rls: { create: true, read: { created_by: '{{user.email}}' }, write: { created_by: '{{user.email}}' } },
};
/** Read by admins only. */
const MEMO = {
  name: 'StaffMemo',
  type: 'object',
  properties: { text: { type: 'string' } },
  rls: { read: { user_condition: { role: 'admin' } }, write: { user_condition: { role: 'admin' } } },
};
const service = serviceTokenFor(APP);
const SOCKET_PATH = '/ws-user-apps/socket.io/';

let root: string;
let emulator: RunningEmulator;
let api: ApiCall;
let ana: string;
let bo: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  root = entityProject(
    'live-queries-',
    [TASK, NOTE, MEMO].map((entity) => [`${entity.name}.jsonc`, entity] as const),
  );
  // The default seed as it ships (no app schemaless): an entity the project does not define is a 404.
  emulator = await startTestEmulator({ projectDir: root, seed: DEFAULT_SEED_PATH });
  api = apiClient(emulator);
  ana = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  bo = await loginToken(emulator, APP, SEEDED_ACCOUNTS.member.email);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  for (const entity of ['Task', 'PrivateNote', 'StaffMemo'])
    await api('DELETE', `/apps/${APP}/entities/${entity}`, { token: service, json: {} });
});
afterAll(async () => {
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
});

interface Options {
  filter?: Json;
  sort?: string;
  fields?: string[];
  limit?: number;
}
type Row = Json & { id: string };
interface Edit {
  remove: string[];
  put: { index: number; record: Row }[];
}

/** A client's copy of one live query, kept from `subscribed` and `update_model` alone. */
interface Watched {
  entities: Row[] | undefined;
  seqs: number[];
  messages: Json[];
  errors: Json[];
}

/** The edit rule of docs/LIVE-QUERIES.md, spelled out independently of the SDK's implementation. */
function applyEdit(list: readonly Row[], { remove, put }: Edit): Row[] {
  const dropped = new Set([...remove, ...put.map(({ record }) => record.id)]);
  const next = list.filter((row) => !dropped.has(row.id));
  for (const { index, record } of [...put].sort((a, b) => a.index - b.index)) next.splice(index, 0, record);
  return next;
}

async function connect(token: string): Promise<Socket> {
  const socket = io(emulator.url, { path: SOCKET_PATH, transports: ['websocket'], query: { app_id: APP, token } });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

const roomOf = (entity: string, queryId: string) => `entities:${APP}:${entity}:watch:${queryId}`;

function watch(socket: Socket, entity: string, queryId: string, options: Options): Watched {
  const watched: Watched = { entities: undefined, seqs: [], messages: [], errors: [] };
  const room = roomOf(entity, queryId);
  socket.on('subscribed', (message: Json & { entities: Row[] }) => {
    if (message.room !== room) return;
    watched.entities = message.entities;
    watched.seqs.push(message.seq as number);
  });
  socket.on('update_model', (message: { room: string; data: string }) => {
    if (message.room !== room) return;
    const data = JSON.parse(message.data) as Json & Edit;
    watched.messages.push(data);
    watched.seqs.push(data.seq as number);
    watched.entities = applyEdit(watched.entities ?? [], data);
  });
  socket.on('error', (problem: Json) => {
    if (problem.room === room) watched.errors.push(problem);
  });
  socket.emit('subscribe_query', { app_id: APP, entity_name: entity, query_id: queryId, options });
  return watched;
}

/** What `filter()` over HTTP answers this caller for these options now. */
async function fresh(token: string, entity: string, options: Options): Promise<Row[]> {
  const query = new URLSearchParams();
  if (options.filter) query.set('q', JSON.stringify(options.filter));
  if (options.sort) query.set('sort', options.sort);
  if (options.limit) query.set('limit', String(options.limit));
  if (options.fields) query.set('fields', options.fields.join(','));
  const response = await api<Row[]>('GET', `/apps/${APP}/entities/${entity}?${query}`, { token });
  expect(response.status).toBe(200);
  return response.body;
}

/** Waits until the copy equals a fresh filter(); then checks its messages were numbered without gaps. */
async function settled(watched: Watched, token: string, entity: string, options: Options): Promise<Row[]> {
  let expected: Row[] = [];
  await eventually(async () => {
    expected = await fresh(token, entity, options);
    return JSON.stringify(watched.entities) === JSON.stringify(expected);
  }, `${entity} equal to a fresh filter()`);
  expect(watched.seqs).toEqual(watched.seqs.map((_, at) => at));
  return expected;
}

async function write(method: string, entity: string, body: Json, id = ''): Promise<Row> {
  const response = await api<Row>(method, `/apps/${APP}/entities/${entity}${id ? `/${id}` : ''}`, {
    token: service,
    json: body,
  });
  expect(response.status).toBeLessThan(300);
  return response.body;
}

/** A write that must reach nobody: a later write's message must be the very next one. */
async function expectSilence(watched: Watched, token: string, options: Options): Promise<void> {
  const before = watched.seqs.length;
  const marker = await write('POST', 'Task', { title: 'marker', rank: -1000, group: 'a' });
  await settled(watched, token, 'Task', options);
  expect(watched.seqs.length).toBe(before + 1);
  expect(watched.messages.at(-1)?.id).toBe(marker.id);
}

describe('results', () => {
  it('start equal to filter() and stay equal as records enter, move in and leave a sorted window', async () => {
    const ids: string[] = [];
    for (const rank of [10, 20, 30, 40, 50])
      ids.push((await write('POST', 'Task', { title: `t${rank}`, rank, group: 'a' })).id);
    const options: Options = { filter: { group: 'a' }, sort: 'rank', limit: 3 };
    const watched = watch(await connect(service), 'Task', 'top3', options);
    expect((await settled(watched, service, 'Task', options)).map((row) => row.rank)).toEqual([10, 20, 30]);

    await write('POST', 'Task', { title: 'enters first', rank: 5, group: 'a' });
    await settled(watched, service, 'Task', options);
    expect(watched.messages.at(-1)).toMatchObject({ type: 'create', change_type: 'added' });
    // The record pushed out of the window is removed in the same message.
    expect((watched.messages.at(-1)?.remove as string[]).length).toBe(1);

    await write('PUT', 'Task', { group: 'b' }, ids[0]); // leaves the filter: 40 is not in, 30 slides in
    const afterLeave = await settled(watched, service, 'Task', options);
    expect(afterLeave.map((row) => row.rank)).toEqual([5, 20, 30]);
    expect(watched.messages.at(-1)).toMatchObject({ type: 'update', change_type: 'removed' });

    await write('PUT', 'Task', { rank: 25 }, ids[3]); // 40 moves into the window
    await settled(watched, service, 'Task', options);
    await api('DELETE', `/apps/${APP}/entities/Task/${afterLeave[0]?.id}`, { token: service });
    expect((await settled(watched, service, 'Task', options)).map((row) => row.rank)).toEqual([20, 25, 30]);

    // Beyond the window or outside the filter: no message at all.
    await write('POST', 'Task', { title: 'far behind', rank: 99, group: 'a' });
    await write('POST', 'Task', { title: 'other group', rank: 1, group: 'c' });
    await expectSilence(watched, service, options);
  });

  it('project fields and default to filter()’s order and page, and one socket carries many queries', async () => {
    for (let at = 0; at < 60; at += 1)
      await write('POST', 'Task', { title: `n${at}`, rank: at % 7, group: `g${at % 3}` });
    const socket = await connect(service);
    const queries: [string, Options][] = [
      ['all', {}],
      ['fields', { fields: ['title'], sort: '-rank,title', limit: 5 }],
      ['g1', { filter: { group: 'g1', rank: { $gte: 3 } }, sort: 'title' }],
      ['none', { filter: { group: 'nothing' } }],
    ];
    const watched = queries.map(([id, options]) => watch(socket, 'Task', id, options));
    for (const [at, [, options]] of queries.entries()) await settled(watched[at] as Watched, service, 'Task', options);
    expect(watched[0]?.entities).toHaveLength(50);
    expect(Object.keys(watched[1]?.entities?.[0] ?? {}).sort()).toEqual(['id', 'title']);

    await write('POST', 'Task', { title: 'a0', rank: 6, group: 'g1' });
    for (const [at, [, options]] of queries.entries()) await settled(watched[at] as Watched, service, 'Task', options);
    expect(watched.map((one) => one.messages.length)).toEqual([1, 1, 1, 0]);
  });

  it('stay exact through a random mix of writes, bulk writes included', async () => {
    const socket = await connect(service);
    const queries: [string, Options][] = [
      ['r1', { sort: 'rank', limit: 4 }],
      ['r2', { filter: { group: { $in: ['a', 'b'] } }, sort: '-rank,title', limit: 6 }],
      ['r3', { filter: { rank: { $lt: 50 } }, sort: 'group,-title' }],
    ];
    const watched = queries.map(([id, options]) => watch(socket, 'Task', id, options));
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const live: string[] = [];
    for (let step = 0; step < 150; step += 1) {
      const fields = { title: `s${random(40)}`, rank: random(100), group: 'abc'[random(3)] as string };
      const choice = live.length === 0 ? 0 : random(10);
      if (choice < 4) live.push((await write('POST', 'Task', fields)).id);
      else if (choice < 8) await write('PUT', 'Task', fields, live[random(live.length)]);
      else if (choice === 8) {
        const [id] = live.splice(random(live.length), 1);
        await api('DELETE', `/apps/${APP}/entities/Task/${id}`, { token: service });
      } else await write('POST', 'Task/bulk', [fields, { ...fields, rank: random(100) }] as unknown as Json);
    }
    await api('PATCH', `/apps/${APP}/entities/Task/update-many`, {
      token: service,
      json: { query: { group: 'a' }, data: { $inc: { rank: 3 } } },
    });
    for (const [at, [, options]] of queries.entries()) await settled(watched[at] as Watched, service, 'Task', options);
  });
});

describe('rules on delivery', () => {
  it('never deliver a record the subscriber may not read, nor a field it may not see', async () => {
    const socket = await connect(ana);
    const raw: string[] = [];
    socket.on('update_model', (message: { data: string }) => raw.push(message.data));
    socket.on('subscribed', (message: Json) => raw.push(JSON.stringify(message)));
    const options: Options = { sort: 'title' };
    const watched = watch(socket, 'PrivateNote', 'mine', options);
    await api('POST', `/apps/${APP}/entities/PrivateNote`, { token: bo, json: { title: 'bo', secret: 'bo secret' } });
    const own = await api<Row>('POST', `/apps/${APP}/entities/PrivateNote`, {
      token: ana,
      json: { title: 'ana', secret: 'ana secret' },
    });
    expect((await settled(watched, ana, 'PrivateNote', options)).map((row) => row.title)).toEqual(['ana']);
    // Bo's note produced no message: Ana's first message is about her own note.
    expect(watched.messages.map((message) => message.id)).toEqual([own.body.id]);
    expect(raw.join('\n')).not.toContain('secret');
    expect(raw.join('\n')).not.toContain('"bo"');
  });

  it('evaluate again when the subscriber’s own user record changes what its rules let it see', async () => {
    await api('POST', `/apps/${APP}/entities/StaffMemo`, { token: service, json: { text: 'for admins' } });
    const options: Options = {};
    const watched = watch(await connect(ana), 'StaffMemo', 'memos', options);
    await settled(watched, ana, 'StaffMemo', options);
    expect(watched.entities).toEqual([]);
    const promote = (role: string) =>
      api('PUT', `/apps/${APP}/entities/User/${SEEDED_ACCOUNTS.user.id}`, { token: service, json: { role } });
    try {
      expect((await promote('admin')).status).toBe(200);
      await eventually(() => watched.entities?.length === 1, 'the memo after the promotion');
      expect(watched.messages.at(-1)).toMatchObject({ type: 'resync', change_type: 'added' });
    } finally {
      await promote('user');
    }
    await eventually(() => watched.entities?.length === 0, 'no memo after the demotion');
    await settled(watched, ana, 'StaffMemo', options);
  });
});

describe('refusals and the query’s life', () => {
  it('refuse bad options, other apps, undefined entities and users, naming the room', async () => {
    const socket = await connect(ana);
    const refused = async (entity: string, queryId: string, options: unknown, appId = APP): Promise<Json> => {
      const errors: Json[] = [];
      socket.on('error', (problem: Json) => errors.push(problem));
      socket.emit('subscribe_query', { app_id: appId, entity_name: entity, query_id: queryId, options });
      await eventually(() => errors.length > 0, `the refusal of ${queryId}`);
      expect(errors[0]?.room).toBe(`entities:${appId}:${entity}:watch:${queryId}`);
      return errors[0] as Json;
    };
    expect(await refused('Task', 'a', { sort: 3 })).toMatchObject({ code: 'invalid_query' });
    expect(await refused('Task', 'b', { skip: 3 })).toMatchObject({ code: 'invalid_query' });
    expect(await refused('Task', 'c', { filter: { $where: 'true' } })).toMatchObject({ code: 'invalid_filter' });
    expect(await refused('Task', 'd', { limit: 10_001 })).toMatchObject({ code: 'invalid_query' });
    expect(await refused('Task', 'e', { sort: 'a b' })).toMatchObject({ code: 'invalid_sort' });
    expect(await refused('Nope', 'f', {})).toMatchObject({ code: 'entity_not_found' });
    expect(await refused('User', 'g', {})).toMatchObject({ code: 'admin_required' });
    expect(await refused('Task', 'h', {}, 'members-only')).toMatchObject({ code: 'forbidden_room' });
    const errors: Json[] = [];
    socket.on('error', (problem: Json) => errors.push(problem));
    socket.emit('subscribe_query', { app_id: APP, entity_name: 'Task', query_id: 'no spaces allowed' });
    await eventually(() => errors.length > 0, 'the refusal of a bad query id');
    expect(errors[0]).toMatchObject({ code: 'invalid_query', room: null });
  });

  it('stop after unsubscribe_query, and answer a repeated subscribe_query with a fresh result', async () => {
    const socket = await connect(service);
    const options: Options = { sort: 'rank' };
    const watched = watch(socket, 'Task', 'life', options);
    await settled(watched, service, 'Task', options);
    await write('POST', 'Task', { title: 'one', rank: 1, group: 'a' });
    await settled(watched, service, 'Task', options);

    const resubscribed = watch(socket, 'Task', 'life', options);
    await eventually(() => resubscribed.seqs.length === 1, 'the second subscribed');
    expect(resubscribed.seqs).toEqual([0]);
    expect(resubscribed.entities).toHaveLength(1);

    const unsubscribed: Json[] = [];
    socket.on('unsubscribed', (message: Json) => unsubscribed.push(message));
    socket.emit('unsubscribe_query', { app_id: APP, entity_name: 'Task', query_id: 'life' });
    await eventually(() => unsubscribed.length === 1, 'unsubscribed');
    expect(unsubscribed[0]).toEqual({ room: roomOf('Task', 'life'), entity_name: 'Task', query_id: 'life' });
    const heard = resubscribed.seqs.length;
    await write('POST', 'Task', { title: 'two', rank: 2, group: 'a' });
    // A second socket proves the write was published before we look.
    const probe = watch(await connect(service), 'Task', 'probe', options);
    await settled(probe, service, 'Task', options);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resubscribed.seqs.length).toBe(heard);
  });
});
