import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, query, type ApiCall, type Json } from '../api';

/** Bad input to the newer entity calls: a clear error, and nothing changes. Plus batching rules. */

const APP = 'coming-soon';
const service = serviceTokenFor(APP);
let emulator: RunningEmulator;
let api: ApiCall;
let clock = Date.parse('2026-11-20T10:00:00.000Z');

beforeAll(async () => {
  emulator = await startTestEmulator({ clock: () => clock });
  api = apiClient(emulator);
});
afterAll(() => emulator.close());

const all = async (entity: string) =>
  (await api<Json[]>('GET', entityPath(APP, entity) + query({ sort: 'n', limit: 10000 }), { token: service })).body;

describe('updateMany', () => {
  it('updates 500 records per call and says when more match', async () => {
    await api('POST', entityPath(APP, 'Job', '/bulk'), {
      json: Array.from({ length: 501 }, (_, n) => ({ n, status: 'pending' })),
      token: service,
    });
    const call = () =>
      api('PATCH', entityPath(APP, 'Job', '/update-many'), {
        json: { query: { status: 'pending' }, data: { $set: { status: 'done' } } },
        token: service,
      });
    expect((await call()).body).toEqual({ success: true, updated: 500, has_more: true });
    expect((await call()).body).toEqual({ success: true, updated: 1, has_more: false });
    expect((await all('Job')).every((job) => job.status === 'done')).toBe(true);
  });

  it('sets $currentDate from the emulator clock as an ISO string and bumps updated_date', async () => {
    await api('POST', entityPath(APP, 'Stamp'), { json: { n: 1 }, token: service });
    clock += 60_000;
    await api('PATCH', entityPath(APP, 'Stamp', '/update-many'), {
      json: { query: {}, data: { $currentDate: { seen: true }, $inc: { n: 2 } } },
      token: service,
    });
    expect(await all('Stamp')).toEqual([
      expect.objectContaining({ n: 3, seen: '2026-11-20T10:01:00.000Z', updated_date: '2026-11-20T10:01:00.000Z' }),
    ]);
  });

  it.each([
    ['an unsafe filter', { query: { n: { $where: 'true' } }, data: { $set: { x: 1 } } }, 400, 'invalid_filter'],
    ['an unknown update operator', { query: {}, data: { $setOnInsert: { x: 1 } } }, 400, 'invalid_update'],
    ['a plain object instead of operators', { query: {}, data: { x: 1 } }, 400, 'invalid_update'],
    ['a system field', { query: {}, data: { $set: { created_by: 'me' } } }, 400, 'invalid_update'],
    ['a reserved path', { query: {}, data: { $set: { 'a.__proto__.b': 1 } } }, 400, 'invalid_update'],
    [
      'a reserved name in a value',
      { query: {}, data: { $set: { a: JSON.parse('{"constructor":{"prototype":{"x":1}}}') as Json } } },
      400,
      'invalid_update',
    ],
    ['one field in two operators', { query: {}, data: { $set: { n: 1 }, $inc: { n: 1 } } }, 400, 'invalid_update'],
    [
      'a path inside a field another operator sets',
      { query: {}, data: { $set: { a: {} }, $inc: { 'a.b': 1 } } },
      400,
      'invalid_update',
    ],
    [
      'a field around a path another operator sets',
      { query: {}, data: { $inc: { 'n.x': 1 }, $unset: { n: '' } } },
      400,
      'invalid_update',
    ],
    [
      'a rename onto a field another operator sets',
      { query: {}, data: { $rename: { n: 'm' }, $set: { m: 5 } } },
      400,
      'invalid_update',
    ],
    ['a rename into its own source', { query: {}, data: { $rename: { n: 'n.inner' } } }, 400, 'invalid_update'],
    ['no query', { data: { $set: { n: 1 } } }, 400, 'invalid_body'],
  ])('refuses %s and changes nothing', async (_name, json, status, code) => {
    const before = await all('Stamp');
    const response = await api('PATCH', entityPath(APP, 'Stamp', '/update-many'), { json, token: service });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ code });
    expect(await all('Stamp')).toEqual(before);
  });

  it('is not available for users, and needs a signed-in caller', async () => {
    const onUsers = await api('PATCH', entityPath(APP, 'User', '/update-many'), {
      json: { query: {}, data: { $set: { role: 'admin' } } },
      token: service,
    });
    expect(onUsers.status).toBe(403);
    const anonymous = await api('PATCH', entityPath(APP, 'Stamp', '/update-many'), {
      json: { query: {}, data: { $set: { n: 0 } } },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('bulkUpdate and upsert', () => {
  it('bulkUpdate changes nothing when one id is unknown', async () => {
    const { body: created } = await api<Json[]>('POST', entityPath(APP, 'Invoice', '/bulk'), {
      json: [{ n: 1, paid: false }],
      token: service,
    });
    const response = await api('PUT', entityPath(APP, 'Invoice', '/bulk'), {
      json: [
        { id: created[0]?.id, paid: true },
        { id: 'missing', paid: true },
      ],
      token: service,
    });
    expect(response.status).toBe(404);
    expect(await all('Invoice')).toEqual([expect.objectContaining({ paid: false })]);
  });

  it('lets a user bulk-update only through the User rules', async () => {
    const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
    // Its own role is not the user's to change: ignored, as in a single update.
    const own = await api<Json[]>('PUT', entityPath(APP, 'User', '/bulk'), {
      json: [{ id: SEEDED_ACCOUNTS.user.id, role: 'admin', nickname: 'uli' }],
      token,
    });
    expect(own.status).toBe(200);
    expect(own.body).toEqual([expect.objectContaining({ role: 'user', nickname: 'uli' })]);
    // Another user's record is not one it may read or change.
    const other = await api('PUT', entityPath(APP, 'User', '/bulk'), {
      json: [{ id: SEEDED_ACCOUNTS.admin.id, nickname: 'x' }],
      token,
    });
    expect(other.status).toBe(404);
  });

  it.each([
    ['a record without the key', { records: [{ sku: 'a' }, { name: 'no key' }], key: 'sku' }, 'missing_key'],
    ['no key', { records: [{ sku: 'a' }] }, 'invalid_key'],
    ['a reserved key', { records: [{ sku: 'a' }], key: '__proto__' }, 'invalid_key'],
    [
      'more than 500 records',
      { records: Array.from({ length: 501 }, (_, n) => ({ sku: String(n) })), key: 'sku' },
      'too_many_records',
    ],
  ])('upsert refuses %s and creates nothing', async (_name, json, code) => {
    const response = await api('POST', entityPath(APP, 'Stock', '/upsert'), { json, token: service });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code });
    expect(await all('Stock')).toEqual([]);
  });

  it('upsert matches compound keys, including nested paths', async () => {
    const first = await api('POST', entityPath(APP, 'Place', '/upsert'), {
      json: { records: [{ at: { x: 1, y: 2 }, name: 'a' }], key: ['at.x', 'at.y'] },
      token: service,
    });
    const second = await api('POST', entityPath(APP, 'Place', '/upsert'), {
      json: {
        records: [
          { at: { x: 1, y: 2 }, name: 'b' },
          { at: { x: 2, y: 2 }, name: 'c' },
        ],
        key: ['at.x', 'at.y'],
      },
      token: service,
    });
    expect(first.body).toMatchObject({ created: 1, updated: 0 });
    expect(second.body).toMatchObject({ created: 1, updated: 1 });
    expect((await all('Place')).map((place) => place.name)).toEqual(['b', 'c']);
  });
});

describe('reads', () => {
  it('aggregates by a nested field, sorted by group or by measure', async () => {
    const places = [
      { meta: { city: 'Köln' } },
      { meta: { city: 'Berlin' } },
      { meta: { city: 'Berlin' } },
      { meta: {} },
    ];
    await api('POST', entityPath(APP, 'Visit', '/bulk'), { json: places, token: service });
    const byGroup = await api('POST', entityPath(APP, 'Visit', '/aggregate'), {
      json: { groupBy: 'meta.city' },
      token: service,
    });
    expect(byGroup.body).toEqual({
      rows: [
        { 'meta.city': null, count: 1 },
        { 'meta.city': 'Berlin', count: 2 },
        { 'meta.city': 'Köln', count: 1 },
      ],
      truncated: false,
    });
    const byCount = await api('POST', entityPath(APP, 'Visit', '/aggregate'), {
      json: { groupBy: 'meta.city', sort: '-count', limit: 1 },
      token: service,
    });
    expect(byCount.body).toEqual({ rows: [{ 'meta.city': 'Berlin', count: 2 }], truncated: true });
  });

  it.each([
    ['count with an unsafe filter', 'GET', '/count?q=%7B%22%24where%22%3A%22true%22%7D', undefined, 'invalid_filter'],
    ['a page with a made-up cursor', 'GET', '/v2/list?cursor=bm9wZQ', undefined, 'invalid_cursor'],
    ['aggregate with an unknown option', 'POST', '/aggregate', { groupBy: 'n', pivot: true }, 'invalid_aggregate'],
    [
      'aggregate grouped by five fields',
      'POST',
      '/aggregate',
      { groupBy: ['a', 'b', 'c', 'd', 'e'] },
      'invalid_aggregate',
    ],
    [
      'a weekly bucket of a schema field',
      'POST',
      '/aggregate',
      { dateBucket: { field: 'due', unit: 'week' } },
      'invalid_aggregate',
    ],
    [
      'aggregate with an unsafe having',
      'POST',
      '/aggregate',
      { groupBy: 'n', having: { $expr: {} } },
      'invalid_filter',
    ],
  ])('refuses %s with 400', async (_name, method, suffix, json, code) => {
    const response = await api(method, entityPath(APP, 'Job', suffix), { json, token: service });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code });
  });

  it('refuses a cursor together with a different sort', async () => {
    const first = await api('GET', entityPath(APP, 'Job', '/v2/list') + query({ sort: 'n', limit: 2 }), {
      token: service,
    });
    const cursor = first.body.next_cursor as string;
    const mismatch = await api('GET', entityPath(APP, 'Job', '/v2/list') + query({ sort: '-n', cursor }), {
      token: service,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: 'cursor_mismatch' });
    const elsewhere = await api('GET', entityPath(APP, 'Invoice', '/v2/list') + query({ cursor }), { token: service });
    expect(elsewhere.body).toMatchObject({ code: 'invalid_cursor' });
  });
});
