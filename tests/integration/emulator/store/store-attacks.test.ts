import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, SEEDED_APPS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, query, type ApiCall, type Json } from '../api';

/**
 * Attacks on the store, each reproduced through the HTTP API: prototype pollution, entity names
 * that are built-ins, reserved names at any depth, records too deep or too large to store.
 */

const APP: string = SEEDED_APPS.public;
const GATED = SEEDED_APPS.loginRequired;
let dataDir: string;
let emulator: RunningEmulator;
let api: ApiCall;
let token: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'emulator-attacks-'));
  emulator = await startTestEmulator({ dataDir });
  api = apiClient(emulator);
  token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
});
afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
  // If an attack ever lands, do not let it leak into other suites of this worker.
  delete (Object.prototype as Record<string, unknown>).polluted;
});

const rawPost = (entity: string, body: string, appId = APP, bearer = token) =>
  api('POST', entityPath(appId, entity), { body, headers: { 'Content-Type': 'application/json' }, token: bearer });

const count = async (entity: string) =>
  (await api<Json[]>('GET', entityPath(APP, entity) + query({ limit: 10000 }), { token })).body.length;

describe('prototype pollution', () => {
  it('refuses a nested __proto__ in stored data, so a projection through it cannot write to Object.prototype', async () => {
    const stored = await rawPost('Pollute', '{"x":{"__proto__":{"polluted":"yes"}}}');
    expect(stored.status).toBe(400);
    expect(stored.body).toMatchObject({ code: 'invalid_field_name' });
    const listed = await api('GET', entityPath(APP, 'Pollute') + query({ fields: 'x.__proto__.polluted' }), { token });
    expect(listed.status).toBe(400);
    expect(listed.body).toMatchObject({ code: 'invalid_fields' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['constructor.prototype in a record', '{"a":[{"b":{"constructor":{"prototype":{"polluted":1}}}}]}'],
    ['prototype deep in an array', '{"list":[[{"prototype":1}]]}'],
  ])('refuses %s and stores nothing', async (_name, body) => {
    const before = await count('Deep');
    const stored = await rawPost('Deep', body);
    expect(stored.status).toBe(400);
    expect(await count('Deep')).toBe(before);
  });

  it.each([
    ['a fields path', { fields: 'a.constructor' }, 'invalid_fields'],
    ['a sort path', { sort: '-__proto__' }, 'invalid_sort'],
    ['a filter path', { q: { 'a.prototype.b': 1 } }, 'invalid_filter'],
    ['a filter value', { q: { a: { $eq: JSON.parse('{"__proto__":{"polluted":1}}') as Json } } }, 'invalid_filter'],
  ])('refuses reserved names in %s', async (_name, params, code) => {
    const { status, body } = await api('GET', entityPath(APP, 'Anything') + query(params), { token });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code });
  });
});

describe('forged cursor tokens', () => {
  const forge = (walk: Json) =>
    Buffer.from(
      JSON.stringify({
        v: 1,
        app: APP,
        entity: 'Pollute',
        q: null,
        sort: null,
        fields: null,
        distinct: null,
        after: [],
        ...walk,
      }),
    ).toString('base64url');

  it.each([
    ['reserved fields', { fields: ['x.__proto__.polluted'] }, 'invalid_fields'],
    ['a reserved sort path', { sort: 'constructor.prototype' }, 'invalid_sort'],
    ['an unsafe query', { q: { $where: 'true' } }, 'invalid_filter'],
    ['a reserved distinct field', { distinct: '__proto__' }, 'invalid_distinct'],
    [
      'a deeply nested position',
      { after: JSON.parse(`${'['.repeat(3_000)}1${']'.repeat(3_000)}`) as unknown },
      'invalid_cursor',
    ],
  ])('refuses a cursor carrying %s', async (_name, walk, code) => {
    await rawPost('Pollute', '{"x":{"y":1}}');
    const { status, body } = await api('GET', entityPath(APP, 'Pollute', '/v2/list') + query({ cursor: forge(walk) }), {
      token,
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('entity names that are built-ins of plain objects', () => {
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    '%s is an ordinary entity of its own app, invisible to other apps',
    async (entity) => {
      const gatedService = serviceTokenFor(GATED);
      const written = await rawPost(entity, JSON.stringify({ secret: `of ${GATED}` }), GATED, gatedService);
      expect(written.status).toBe(201);
      const own = await api<Json[]>('GET', entityPath(GATED, entity), { token: gatedService });
      expect(own.body.map((record) => record.secret)).toEqual([`of ${GATED}`]);
      // Anonymous, through the public app: must not see the gated app's record.
      const other = await api<Json[]>('GET', entityPath(APP, entity));
      expect(other.status).toBe(200);
      expect(other.body).toEqual([]);
      expect((await api('GET', entityPath(APP, entity, `/${written.body.id as string}`))).status).toBe(404);
    },
  );

  it('keeps such records across a restart', async () => {
    const written = await rawPost('valueOf', JSON.stringify({ kept: true }));
    expect(written.status).toBe(201);
    await emulator.close();
    emulator = await startTestEmulator({ dataDir });
    api = apiClient(emulator);
    const read = await api('GET', entityPath(APP, 'valueOf', `/${written.body.id as string}`), { token });
    expect(read.body).toMatchObject({ kept: true });
  });
});

describe('depth and size limits on stored JSON', () => {
  it('answers a record nested 200,000 levels deep with 400 and keeps every later write working', async () => {
    const depth = 200_000;
    const deep = `{"v":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const refused = await rawPost('Abyss', deep);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'too_deep' });
    expect(await count('Abyss')).toBe(0);
    const later = await rawPost('Abyss', '{"fine":true}');
    expect(later.status).toBe(201);
    const elsewhere = await rawPost('Other', '{"fine":true}', GATED, serviceTokenFor(GATED));
    expect(elsewhere.status).toBe(201);
  });

  it('answers a record above the size limit with 413 and stores nothing', async () => {
    const before = await count('Big');
    const big = await rawPost('Big', JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'record_too_large' });
    expect(await count('Big')).toBe(before);
  });

  it('applies the same limits to updates and bulk writes, leaving the record unchanged', async () => {
    const { body: record } = await rawPost('Guarded', '{"n":1}');
    const update = await api('PUT', entityPath(APP, 'Guarded', `/${record.id as string}`), {
      body: '{"n":{"__proto__":{"polluted":1}}}',
      headers: { 'Content-Type': 'application/json' },
      token,
    });
    expect(update.status).toBe(400);
    const bulk = await api('POST', entityPath(APP, 'Guarded', '/bulk'), {
      json: [{ ok: 1 }, { deep: JSON.parse('[[[[[[{"constructor":1}]]]]]]') as unknown }],
      token,
    });
    expect(bulk.status).toBe(400);
    const records = (await api<Json[]>('GET', entityPath(APP, 'Guarded'), { token })).body;
    expect(records).toEqual([expect.objectContaining({ id: record.id, n: 1 })]);
  });
});
