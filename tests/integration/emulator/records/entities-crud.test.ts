import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, query, type ApiCall, type Json } from '../api';

let emulator: RunningEmulator;
let api: ApiCall;
let token: string;
const APP = 'coming-soon';
const service = serviceTokenFor(APP);

beforeAll(async () => {
  emulator = await startTestEmulator();
  api = apiClient(emulator);
  token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
});
afterAll(() => emulator.close());

const list = async (entity: string, params: Record<string, unknown> = {}) =>
  (await api<Json[]>('GET', entityPath(APP, entity) + query(params), { token })).body;

describe('create, read, update, delete', () => {
  it('creates a record with system fields and reads it back', async () => {
    const created = await api('POST', entityPath(APP, 'Task'), { json: { title: 'Write tests', done: false }, token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Write tests', done: false, created_by: 'user@example.com' });
    expect(created.body.id).toMatch(/^[a-f0-9]{24}$/);
    expect(created.body.created_date).toBe(created.body.updated_date);
    const read = await api('GET', entityPath(APP, 'Task', `/${created.body.id as string}`), { token });
    expect(read.body).toEqual(created.body);
  });

  it('ignores system fields sent by the client', async () => {
    const { body } = await api('POST', entityPath(APP, 'Task'), {
      json: { title: 'sneaky', id: 'mine', created_by: 'someone-else', created_date: '1999-01-01T00:00:00.000Z' },
      token,
    });
    expect(body.id).not.toBe('mine');
    expect(body.created_by).toBe('user@example.com');
    expect(body.created_date).not.toBe('1999-01-01T00:00:00.000Z');
  });

  it('updates only the given fields and bumps updated_date', async () => {
    const { body: created } = await api('POST', entityPath(APP, 'Task'), {
      json: { title: 'partial', priority: 1 },
      token,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { status, body } = await api('PUT', entityPath(APP, 'Task', `/${created.id as string}`), {
      json: { priority: 2 },
      token,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ title: 'partial', priority: 2, created_date: created.created_date });
    expect((body.updated_date as string) > (created.updated_date as string)).toBe(true);
  });

  it('deletes one record, after which it is 404', async () => {
    const { body: created } = await api('POST', entityPath(APP, 'Task'), { json: { title: 'doomed' }, token });
    const path = entityPath(APP, 'Task', `/${created.id as string}`);
    expect((await api('DELETE', path, { token })).body).toEqual({ success: true, id: created.id });
    const after = await api('GET', path, { token });
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ code: 'record_not_found' });
    expect((await api('PUT', path, { json: { title: 'x' }, token })).status).toBe(404);
    expect((await api('DELETE', path, { token })).status).toBe(404);
  });

  it('works for any entity name and keeps entities apart', async () => {
    await api('POST', entityPath(APP, 'Zebra_2'), { json: { stripes: 40 }, token });
    expect(await list('Zebra_2')).toHaveLength(1);
    expect(await list('Zebra_3')).toEqual([]);
  });
});

describe('list and filter', () => {
  beforeAll(async () => {
    const people = [
      { name: 'Anna', age: 31, city: 'Berlin', tags: ['a', 'b'], address: { zip: '10115', country: 'DE' } },
      { name: 'Ben', age: 25, city: 'Hamburg', tags: ['b'], address: { zip: '20095', country: 'DE' } },
      { name: 'Cleo', age: 42, city: 'Wien', tags: [], address: { zip: '1010', country: 'AT' } },
      { name: 'dora', age: 19, city: 'Berlin', address: { zip: '10117', country: 'DE' } },
      { name: 'Emil', age: 25, city: 'Zürich', nickname: null, address: { zip: '8001', country: 'CH' } },
    ];
    for (const person of people) await api('POST', entityPath(APP, 'Person'), { json: person, token });
  });

  const names = (records: Json[]) => records.map((record) => record.name);

  it('defaults to newest first', async () => {
    expect(names(await list('Person'))).toEqual(['Emil', 'dora', 'Cleo', 'Ben', 'Anna']);
  });

  it('sorts ascending and descending, with limit and skip', async () => {
    expect(names(await list('Person', { sort: 'age' }))).toEqual(['dora', 'Ben', 'Emil', 'Anna', 'Cleo']);
    expect(names(await list('Person', { sort: '-age', limit: '2' }))).toEqual(['Cleo', 'Anna']);
    expect(names(await list('Person', { sort: 'name', skip: '1', limit: '2' }))).toEqual(['Ben', 'Cleo']);
    expect(names(await list('Person', { sort: 'address.zip' }))).toEqual(['Cleo', 'Anna', 'dora', 'Ben', 'Emil']);
  });

  it('returns only the requested fields (plus id)', async () => {
    const [first] = await list('Person', { sort: 'age', fields: 'name,address.country' });
    expect(first).toEqual({ id: expect.any(String), name: 'dora', address: { country: 'DE' } });
  });

  it.each([
    ['equality', { city: 'Berlin' }, ['Anna', 'dora']],
    ['$in', { city: { $in: ['Wien', 'Hamburg'] } }, ['Ben', 'Cleo']],
    ['$nin', { city: { $nin: ['Berlin', 'Wien'] } }, ['Ben', 'Emil']],
    ['$gt', { age: { $gt: 31 } }, ['Cleo']],
    ['$gte', { age: { $gte: 31 } }, ['Anna', 'Cleo']],
    ['$lt', { age: { $lt: 25 } }, ['dora']],
    ['$lte', { age: { $lte: 25 } }, ['Ben', 'dora', 'Emil']],
    ['$ne', { city: { $ne: 'Berlin' } }, ['Ben', 'Cleo', 'Emil']],
    ['$regex', { name: { $regex: '^[a-d]', $options: 'i' } }, ['Anna', 'Ben', 'Cleo', 'dora']],
    ['case-sensitive $regex', { name: { $regex: '^d' } }, ['dora']],
    ['$and', { $and: [{ city: 'Berlin' }, { age: { $gt: 20 } }] }, ['Anna']],
    ['$or', { $or: [{ city: 'Wien' }, { age: 19 }] }, ['Cleo', 'dora']],
    ['a nested field', { 'address.country': 'DE', 'address.zip': { $gte: '10116' } }, ['Ben', 'dora']],
    ['an array field holding a value', { tags: 'b' }, ['Anna', 'Ben']],
    ['$exists', { nickname: { $exists: true } }, ['Emil']],
    ['a range on two operators', { age: { $gt: 20, $lt: 40 } }, ['Anna', 'Ben', 'Emil']],
  ])('filters with %s', async (_label, filter, expected) => {
    expect(names(await list('Person', { q: filter, sort: 'name' })).sort()).toEqual([...expected].sort());
  });
});

describe('bulk create, delete many and import', () => {
  it('bulk-creates a list of records in one call', async () => {
    const { status, body } = await api<Json[]>('POST', entityPath(APP, 'Bulk', '/bulk'), {
      json: [{ n: 1 }, { n: 2 }, { n: 3 }],
      token,
    });
    expect(status).toBe(201);
    expect(body.map((record) => record.n)).toEqual([1, 2, 3]);
    expect(new Set(body.map((record) => record.id)).size).toBe(3);
    expect(await list('Bulk')).toHaveLength(3);
  });

  it('deletes every record matching a filter and nothing else', async () => {
    await api('POST', entityPath(APP, 'Sweep', '/bulk'), {
      json: [{ keep: true }, { keep: false }, { keep: false }],
      token,
    });
    const { body } = await api('DELETE', entityPath(APP, 'Sweep'), { json: { keep: false }, token });
    expect(body).toEqual({ success: true, deleted: 2 });
    expect((await list('Sweep')).map((record) => record.keep)).toEqual([true]);
  });

  it('imports records from an uploaded CSV file', async () => {
    const csv = 'name,age,zip,note\r\n"Smith, Jo",40,01234,"said ""hi""\nthen left"\nLee,7,,\n';
    const form = new FormData();
    form.append('file', new File([csv], 'people.csv', { type: 'text/csv' }));
    const { status, body } = await api('POST', entityPath(APP, 'Imported', '/import'), { body: form, token });
    expect(status).toBe(201);
    expect(body.imported).toBe(2);
    const records = await list('Imported', { sort: 'age' });
    expect(records[0]).toMatchObject({ name: 'Lee', age: 7 });
    expect(records[0]).not.toHaveProperty('zip');
    expect(records[1]).toMatchObject({ name: 'Smith, Jo', age: 40, zip: '01234', note: 'said "hi"\nthen left' });
  });

  it('imports records from an uploaded JSON file', async () => {
    const form = new FormData();
    form.append(
      'file',
      new File([JSON.stringify([{ a: 1 }, { a: { nested: true } }])], 'rows.json', { type: 'application/json' }),
    );
    const { status, body } = await api('POST', entityPath(APP, 'ImportedJson', '/import'), { body: form, token });
    expect(status).toBe(201);
    expect(body.imported).toBe(2);
    expect((await list('ImportedJson', { sort: 'created_date' })).map((record) => record.a)).toEqual([
      1,
      { nested: true },
    ]);
  });
});

describe('bad input is refused with a clear 4xx and changes nothing', () => {
  const ENTITY = 'Guarded';
  let snapshot: Json[];

  beforeAll(async () => {
    await api('POST', entityPath(APP, ENTITY), { json: { original: true }, token });
    snapshot = await list(ENTITY);
  });

  afterEach(async () => {
    expect(await list(ENTITY)).toEqual(snapshot);
  });

  const form = (name: string, content: string, type: string) => {
    const data = new FormData();
    data.append('file', new File([content], name, { type }));
    return data;
  };

  it.each<[string, string, string, Record<string, unknown>, number, string]>([
    [
      'malformed JSON',
      'POST',
      '',
      { body: '{"a":', headers: { 'Content-Type': 'application/json' } },
      400,
      'malformed_json',
    ],
    ['a JSON array as a record', 'POST', '', { json: [1, 2] }, 400, 'invalid_record'],
    ['a JSON string as a record', 'POST', '', { json: 'text' }, 400, 'invalid_record'],
    [
      'a non-JSON content type',
      'POST',
      '',
      { body: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      415,
      'unsupported_media_type',
    ],
    ['an operator as a field name', 'POST', '', { json: { $set: 1 } }, 400, 'invalid_field_name'],
    ['a dotted field name', 'POST', '', { json: { 'a.b': 1 } }, 400, 'invalid_field_name'],
    [
      'a __proto__ field',
      'POST',
      '',
      { body: '{"__proto__":{"polluted":1}}', headers: { 'Content-Type': 'application/json' } },
      400,
      'invalid_field_name',
    ],
    ['bulk with a non-list', 'POST', '/bulk', { json: { n: 1 } }, 400, 'invalid_body'],
    [
      'bulk with one bad record among good ones',
      'POST',
      '/bulk',
      { json: [{ n: 1 }, 'bad', { n: 3 }] },
      400,
      'invalid_record',
    ],
    ['delete-many without a filter', 'DELETE', '', {}, 400, 'invalid_filter'],
    ['delete-many with an unknown operator', 'DELETE', '', { json: { n: { $where: 'x' } } }, 400, 'invalid_filter'],
    ['import without a file part', 'POST', '/import', { body: new FormData() }, 400, 'missing_file'],
    ['import as JSON', 'POST', '/import', { json: { file: 'x' } }, 400, 'invalid_body'],
    [
      'import of a broken CSV',
      'POST',
      '/import',
      { body: form('x.csv', 'a,b\n1,2,3\n', 'text/csv') },
      400,
      'invalid_csv',
    ],
    [
      'import of an unterminated quote',
      'POST',
      '/import',
      { body: form('x.csv', 'a\n"open\n', 'text/csv') },
      400,
      'invalid_csv',
    ],
    [
      'import of broken JSON',
      'POST',
      '/import',
      { body: form('x.json', '[{', 'application/json') },
      400,
      'invalid_json_file',
    ],
    [
      'import of another file type',
      'POST',
      '/import',
      { body: form('x.txt', 'hello', 'text/plain') },
      400,
      'unsupported_file_type',
    ],
  ])('%s', async (_label, method, suffix, options, status, code) => {
    const result = await api(method, entityPath(APP, ENTITY, suffix), { token, ...options });
    expect(result.status).toBe(status);
    expect(result.body).toMatchObject({ code, message: expect.any(String) });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['malformed q', { q: '{"a":' }, 'invalid_filter'],
    ['a non-object q', { q: '[1]' }, 'invalid_filter'],
    ['an unknown operator', { q: { a: { $near: 1 } } }, 'invalid_filter'],
    ['a bad regex', { q: { a: { $regex: '(' } } }, 'invalid_filter'],
    ['$in without a list', { q: { a: { $in: 'x' } } }, 'invalid_filter'],
    ['a negative limit', { limit: '-1' }, 'invalid_limit'],
    ['a word as skip', { skip: 'ten' }, 'invalid_skip'],
    ['a bad sort field', { sort: 'a;b' }, 'invalid_sort'],
    ['a bad field name', { fields: 'a,$b' }, 'invalid_fields'],
  ])('a list with %s', async (_label, params, code) => {
    const result = await api('GET', entityPath(APP, ENTITY) + query(params), { token });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code });
  });

  it('an update with an array body or a system-breaking field', async () => {
    const path = entityPath(APP, ENTITY, `/${snapshot[0]?.id as string}`);
    expect((await api('PUT', path, { json: [1], token })).body).toMatchObject({ code: 'invalid_body' });
    expect((await api('PUT', path, { json: { 'a.b': 1 }, token })).body).toMatchObject({ code: 'invalid_field_name' });
  });

  it('an invalid entity name', async () => {
    const result = await api('POST', entityPath(APP, '1-bad%20name'), { json: { a: 1 }, token });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'invalid_entity' });
  });

  it('anonymous writes on a public app', async () => {
    expect((await api('POST', entityPath(APP, ENTITY), { json: { a: 1 } })).status).toBe(401);
    expect((await api('DELETE', entityPath(APP, ENTITY), { json: {} })).status).toBe(401);
    expect(
      (await api('PUT', entityPath(APP, ENTITY, `/${snapshot[0]?.id as string}`), { json: { a: 1 } })).status,
    ).toBe(401);
  });

  it('the service role may still write everywhere', async () => {
    const created = await api('POST', entityPath(APP, 'ServiceOnly'), { json: { a: 1 }, token: service });
    expect(created.body).toMatchObject({ created_by: 'server@server.com', created_by_id: 'service-role' });
  });
});
