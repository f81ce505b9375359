import { rmSync } from 'node:fs';

import { createClient, PlatformError } from '@/lib/sdk';
import { entityProject, loginToken, SEEDED_ACCOUNTS, serviceTokenFor, testSeed } from '@/tests/support/emulator';

import { entityPath, query, suiteEmulator, type Json } from '../api';

/**
 * Entity schemas on every write path (create, bulk create, import, update, bulk update, updateMany,
 * upsert): 404 for an entity the project does not define, 422 with the platform's validation body,
 * unknown fields dropped, defaults filled, built-in fields set by the platform only.
 */

const APP = 'coming-soon';
const SERVICE = serviceTokenFor(APP);
const TASK = `// base44/entities/task.jsonc
{
  "name": "Task",
  "type": "object",
  "properties": {
    "title": { "type": "string", "minLength": 1, "maxLength": 20 },
    "status": { "type": "string", "enum": ["todo", "done"], "default": "todo" },
    "priority": { "type": "integer", "minimum": 1, "maximum": 5 },
    "score": { "type": "number" },
    "done": { "type": "boolean", "default": false },
    "due": { "type": "string", "format": "date" },
    "contact": { "type": "string", "format": "email" },
    "code": { "type": "string", "pattern": "^[A-Z]{3}$" },
    "tags": { "type": "array", "items": { "type": "string" }, "default": [] },
    "meta": { "type": "object", "properties": { "level": { "type": "integer" } }, "required": ["level"] },
    "note": { "type": ["string", "null"] },
    "stage": { "type": ["string", "null"], "enum": ["draft", "final"] },
    "steps": {
      "type": "array",
      "items": { "type": "object", "properties": { "link": { "type": "string", "format": "uri" } }, "required": ["link"] },
    },
    "slug": { "type": "string", "pattern": "^(a+)+$" },
    // Named like an Object.prototype member: absent unless sent.
    "valueOf": { "type": "integer" },
  },
  "required": ["title"],
}`;

const root = entityProject('entity-schemas-', [['task.jsonc', TASK]]);
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The seeded apps, not schemaless: only the project's entities exist.
const seed = testSeed();
for (const app of seed.apps) app.schemaless = false;
const suite = suiteEmulator({ projectDir: root, seed });

const tasks = (suffix = '') => entityPath(APP, 'Task', suffix);
const validation = (message: string) => ({
  error_type: 'ValidationError',
  message,
  request_id: null,
  traceback: '',
});

async function taskCount(): Promise<number> {
  const { body } = await suite.api<{ count: number }>('GET', `${tasks('/count')}`, { token: SERVICE });
  return body.count;
}

async function createTask(fields: Json = {}): Promise<Json> {
  const { status, body } = await suite.api('POST', tasks(), { token: SERVICE, json: { title: 'Base', ...fields } });
  expect(status).toBe(201);
  return body;
}

describe('an entity the project does not define', () => {
  it.each([
    ['GET', ''],
    ['GET', '/some-id'],
    ['GET', '/count'],
    ['POST', ''],
    ['POST', '/bulk'],
    ['PUT', '/some-id'],
    ['PATCH', '/update-many'],
    ['POST', '/upsert'],
    ['DELETE', '/some-id'],
  ])('is a 404 on %s %s', async (method, suffix) => {
    const { status, body } = await suite.api(method, entityPath(APP, 'Note', suffix), {
      token: SERVICE,
      ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
    });
    expect(status).toBe(404);
    expect(body).toMatchObject({ message: 'Entity "Note" not found', code: 'entity_not_found' });
  });

  it('leaves the built-in User entity working', async () => {
    const token = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.user.email);
    const { status, body } = await suite.api('GET', entityPath(APP, 'User', '/me'), { token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: SEEDED_ACCOUNTS.user.email });
  });
});

describe('create', () => {
  it('fills defaults, drops unknown fields, and sets the built-in fields itself', async () => {
    const token = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.user.email);
    const { status, body } = await suite.api('POST', tasks(), {
      token,
      json: { title: 'Write', extra: 'dropped', created_by_id: 'forged', created_by: 'forged@example.com', id: 'x' },
    });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.any(String),
      title: 'Write',
      status: 'todo',
      done: false,
      tags: [],
      created_date: expect.any(String),
      updated_date: expect.any(String),
      created_by: SEEDED_ACCOUNTS.user.email,
      created_by_id: SEEDED_ACCOUNTS.user.id,
    });
    expect(body.id).not.toBe('x');
  });

  it('drops unknown fields named like Object.prototype members as it drops any unknown field, on every write path', async () => {
    // JSON.parse makes "__proto__" an own key; the raw body keeps it that way on the wire.
    const prototypeNames = '"constructor": "c", "__proto__": { "polluted": 1 }, "toString": "t", "hasOwnProperty": 1';
    const raw = (text: string) => ({ body: text, headers: { 'Content-Type': 'application/json' } });
    const created = await suite.api('POST', tasks(), {
      token: SERVICE,
      ...raw(`{ "title": "Proto", ${prototypeNames} }`),
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const bulk = await suite.api<Json[]>('POST', tasks('/bulk'), {
      token: SERVICE,
      ...raw(`[{ "title": "Proto bulk", ${prototypeNames} }]`),
    });
    expect(bulk.status).toBe(201);
    const updated = await suite.api('PUT', tasks(`/${id}`), {
      token: SERVICE,
      ...raw(`{ "code": "PRO", ${prototypeNames} }`),
    });
    expect(updated.status).toBe(200);
    const upserted = await suite.api('POST', tasks('/upsert'), {
      token: SERVICE,
      ...raw(`{ "key": "code", "records": [{ "title": "Proto upsert", "code": "PRO", ${prototypeNames} }] }`),
    });
    expect(upserted).toMatchObject({ status: 200, body: { created: 0, updated: 1 } });
    const stored = await suite.api<Json[]>(
      'GET',
      `${tasks()}${query({ q: { title: { $in: ['Proto upsert', 'Proto bulk'] } } })}`,
      {
        token: SERVICE,
      },
    );
    for (const record of stored.body) {
      for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        expect(Object.hasOwn(record, name)).toBe(false);
      }
    }
    expect(stored.body).toHaveLength(2);
    expect(({} as Json).polluted).toBeUndefined();
  });

  it('still refuses a reserved name where the field would be stored: inside a kept object field', async () => {
    const { status, body } = await suite.api('POST', tasks(), {
      token: SERVICE,
      body: '{ "title": "Nested", "meta": { "level": 1, "constructor": "x" } }',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_field_name' });
  });

  it.each<[string, Json, string]>([
    ['a missing required field', { title: undefined }, 'Error in field title: Field required'],
    ['a null required field', { title: null }, 'Error in field title: Field required'],
    ['a number for a string', { title: 5 }, 'Error in field title: Input should be a valid string'],
    ['a too short string', { title: '' }, 'Error in field title: String should have at least 1 characters'],
    ['a too long string', { title: 'x'.repeat(21) }, 'Error in field title: String should have at most 20 characters'],
    ['a value outside the enum', { status: 'later' }, "Error in field status: Input should be 'todo' or 'done'"],
    ['a fraction for an integer', { priority: 1.5 }, 'Error in field priority: Input should be a valid integer'],
    [
      'an integer below the minimum',
      { priority: 0 },
      'Error in field priority: Input should be greater than or equal to 1',
    ],
    [
      'an integer above the maximum',
      { priority: 6 },
      'Error in field priority: Input should be less than or equal to 5',
    ],
    ['a string for a number', { score: '1' }, 'Error in field score: Input should be a valid number'],
    ['a string for a boolean', { done: 'yes' }, 'Error in field done: Input should be a valid boolean'],
    ['an impossible date', { due: '2026-02-30' }, 'Error in field due: Input should be a valid date'],
    ['a bad e-mail', { contact: 'nobody' }, 'Error in field contact: Input should be a valid email'],
    ['a string off the pattern', { code: 'abc' }, "Error in field code: String should match pattern '^[A-Z]{3}$'"],
    ['an object for an array', { tags: {} }, 'Error in field tags: Input should be a valid array'],
    ['a bad array item', { tags: ['a', 2] }, 'Error in field tags[1]: Input should be a valid string'],
    ['an array for an object', { meta: [] }, 'Error in field meta: Input should be a valid object'],
    ['a nested required field', { meta: {} }, 'Error in field meta.level: Field required'],
    ['a bad nested field', { meta: { level: 'high' } }, 'Error in field meta.level: Input should be a valid integer'],
    ['a number for string-or-null', { note: 1 }, 'Error in field note: Input should be a valid string or null'],
    ['null for a plain string', { due: null }, 'Error in field due: Input should be a valid string'],
    [
      'a number for an enum field (the type is checked first)',
      { status: 5 },
      'Error in field status: Input should be a valid string',
    ],
    ['a value outside a nullable enum', { stage: 'later' }, "Error in field stage: Input should be 'draft' or 'final'"],
    ['a number for a nullable enum', { stage: 1 }, 'Error in field stage: Input should be a valid string or null'],
    [
      'a missing field in an array item',
      { steps: [{ link: 'https://a.example' }, {}] },
      'Error in field steps[1].link: Field required',
    ],
    [
      'a bad format in an array item',
      { steps: [{ link: 'not a uri' }] },
      'Error in field steps[0].link: Input should be a valid uri',
    ],
    [
      'a field named like a prototype member, mistyped',
      { valueOf: 'x' },
      'Error in field valueOf: Input should be a valid integer',
    ],
  ])('refuses %s with 422 and the platform body', async (_label, fields, message) => {
    const before = await taskCount();
    // JSON leaves out a field set to undefined: { title: undefined } sends no title.
    const json = { title: 'Valid', ...fields };
    const { status, body } = await suite.api('POST', tasks(), { token: SERVICE, json });
    expect(status).toBe(422);
    expect(body).toEqual(validation(message));
    expect(await taskCount()).toBe(before);
  });

  it('accepts every documented format and type when the values fit', async () => {
    const record = await createTask({
      status: 'done',
      priority: 5,
      score: 2.5,
      due: '2024-02-29',
      contact: 'a@example.com',
      code: 'ABC',
      tags: ['x'],
      meta: { level: 1, free: 'kept' },
      note: null,
      stage: null,
      steps: [{ link: 'https://a.example/x' }],
    });
    expect(record).toMatchObject({ priority: 5, meta: { level: 1, free: 'kept' }, note: null, stage: null });
  });

  it('counts string lengths in characters, not UTF-16 units', async () => {
    expect(await createTask({ title: '😀'.repeat(20) })).toMatchObject({ title: '😀'.repeat(20) });
  });

  it('matches patterns in linear time: a pattern that makes a backtracking engine explode answers at once', async () => {
    // A backtracking engine (JavaScript's RegExp) takes 2^40 steps here and never answers in the
    // test's time; RE2 answers in microseconds.
    const { status, body } = await suite.api('POST', tasks(), {
      token: SERVICE,
      json: { title: 'Slow?', slug: `${'a'.repeat(40)}!` },
    });
    expect(status).toBe(422);
    expect(body).toEqual(validation("Error in field slug: String should match pattern '^(a+)+$'"));
  });
});

describe('through our client', () => {
  it('rejects with a PlatformError carrying the status and the platform message', async () => {
    const client = createClient({ serverUrl: suite.emulator.url, appId: APP, serviceToken: SERVICE });
    const failure = client.asServiceRole.entity('Task').create({ priority: 2 });
    await expect(failure).rejects.toBeInstanceOf(PlatformError);
    await expect(failure).rejects.toMatchObject({ status: 422, message: 'Error in field title: Field required' });
    await expect(client.asServiceRole.entity('Note').list()).rejects.toMatchObject({ status: 404 });
  });
});

describe('bulk create', () => {
  it('stores nothing when one record breaks the schema, naming the field', async () => {
    const before = await taskCount();
    const { status, body } = await suite.api('POST', tasks('/bulk'), {
      token: SERVICE,
      json: [{ title: 'Fine' }, { title: 'Bad', priority: 'high' }],
    });
    expect(status).toBe(422);
    expect(body).toEqual(validation('Error in field priority: Input should be a valid integer'));
    expect(await taskCount()).toBe(before);
  });

  it('applies defaults and drops unknown fields on each record', async () => {
    const { status, body } = await suite.api<Json[]>('POST', tasks('/bulk'), {
      token: SERVICE,
      json: [{ title: 'One', junk: 1 }, { title: 'Two' }],
    });
    expect(status).toBe(201);
    expect(body.map((record) => [record.status, 'junk' in record])).toEqual([
      ['todo', false],
      ['todo', false],
    ]);
  });
});

describe('update and bulk update', () => {
  it('checks only the fields given, drops unknown ones, and changes nothing on a refusal', async () => {
    const record = await createTask({ priority: 2 });
    const fine = await suite.api('PUT', tasks(`/${record.id as string}`), {
      token: SERVICE,
      json: { priority: 3, junk: true },
    });
    expect(fine.status).toBe(200);
    expect(fine.body).toMatchObject({ title: 'Base', priority: 3 });
    expect(fine.body).not.toHaveProperty('junk');

    const refused = await suite.api('PUT', tasks(`/${record.id as string}`), { token: SERVICE, json: { priority: 9 } });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(validation('Error in field priority: Input should be less than or equal to 5'));
    const after = await suite.api('GET', tasks(`/${record.id as string}`), { token: SERVICE });
    expect(after.body).toMatchObject({ priority: 3 });
  });

  it('refuses a whole bulk update when one item breaks the schema', async () => {
    const one = await createTask({ title: 'One' });
    const two = await createTask({ title: 'Two' });
    const { status, body } = await suite.api('PUT', tasks('/bulk'), {
      token: SERVICE,
      json: [
        { id: one.id, title: 'One changed' },
        { id: two.id, status: 'unknown' },
      ],
    });
    expect(status).toBe(422);
    expect(body).toEqual(validation("Error in field status: Input should be 'todo' or 'done'"));
    const after = await suite.api('GET', tasks(`/${one.id as string}`), { token: SERVICE });
    expect(after.body).toMatchObject({ title: 'One' });
  });
});

describe('updateMany', () => {
  const update = (query: Json, data: Json) =>
    suite.api('PATCH', tasks('/update-many'), { token: SERVICE, json: { query, data } });

  it('checks the fields the operators change, drops fields outside the schema, keeps a required field', async () => {
    const record = await createTask({ title: 'Many', priority: 1 });
    const only = { id: record.id };

    const bad = await update(only, { $set: { priority: 'top' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(validation('Error in field priority: Input should be a valid integer'));

    const unset = await update(only, { $unset: { title: '' } });
    expect(unset.status).toBe(422);
    expect(unset.body).toEqual(validation('Error in field title: Field required'));

    const over = await update(only, { $inc: { priority: 10 } });
    expect(over.status).toBe(422);

    const fine = await update(only, { $inc: { priority: 1 }, $set: { junk: 1 } });
    expect(fine.body).toMatchObject({ success: true, updated: 1 });
    const after = await suite.api('GET', tasks(`/${record.id as string}`), { token: SERVICE });
    expect(after.body).toMatchObject({ title: 'Many', priority: 2 });
    expect(after.body).not.toHaveProperty('junk');
  });
});

describe('upsert', () => {
  const upsert = (records: Json[]) =>
    suite.api<Json>('POST', tasks('/upsert'), { token: SERVICE, json: { records, key: 'code' } });

  it('validates new records as creates and existing ones as updates', async () => {
    const created = await upsert([{ code: 'UPS', title: 'Upserted', junk: 1 }]);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ created: 1, records: [{ code: 'UPS', status: 'todo' }] });
    expect((created.body.records as Json[])[0]).not.toHaveProperty('junk');

    const missing = await upsert([{ code: 'NEW' }]);
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(validation('Error in field title: Field required'));

    const badUpdate = await upsert([{ code: 'UPS', done: 'no' }]);
    expect(badUpdate.status).toBe(422);
    expect(badUpdate.body).toEqual(validation('Error in field done: Input should be a valid boolean'));

    const updated = await upsert([{ code: 'UPS', done: true }]);
    expect(updated.body).toMatchObject({ updated: 1, records: [{ title: 'Upserted', done: true }] });
  });

  it('refuses a key outside the schema, which no stored record could ever match', async () => {
    const { status, body } = await suite.api('POST', tasks('/upsert'), {
      token: SERVICE,
      json: { records: [{ title: 'x', sku: 'A' }], key: 'sku' },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_key', message: 'The upsert key "sku" is not a field of Task' });
  });
});

describe('import', () => {
  const importFile = (name: string, type: string, text: string) => {
    const form = new FormData();
    form.append('file', new File([text], name, { type }));
    return suite.api<Json>('POST', tasks('/import'), { token: SERVICE, body: form });
  };

  it('types CSV cells by the schema: digits stay text in a string field, JSON cells fill arrays', async () => {
    const { status, body } = await importFile(
      'tasks.csv',
      'text/csv',
      'title,priority,done,tags,junk\n007,3,true,"[""a"",""b""]",x\n',
    );
    expect(status).toBe(201);
    expect(body.records).toEqual([
      expect.objectContaining({ title: '007', priority: 3, done: true, tags: ['a', 'b'], status: 'todo' }),
    ]);
    expect((body.records as Json[])[0]).not.toHaveProperty('junk');
  });

  it('refuses a CSV or JSON file with one bad row, storing nothing', async () => {
    const before = await taskCount();
    const csv = await importFile('tasks.csv', 'text/csv', 'title,priority\nFine,1\nBad,high\n');
    expect(csv.status).toBe(422);
    expect(csv.body).toEqual(validation('Error in field priority: Input should be a valid integer'));
    const json = await importFile('tasks.json', 'application/json', JSON.stringify([{ title: 'x' }, { score: 1 }]));
    expect(json.status).toBe(422);
    expect(json.body).toEqual(validation('Error in field title: Field required'));
    expect(await taskCount()).toBe(before);
  });

  it('keeps a CSV JSON cell inside the stored-data rules', async () => {
    const { status, body } = await importFile('tasks.csv', 'text/csv', 'title,tags\nx,"{""__proto__"": 1}"\n');
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: 'invalid_field_name',
      message: expect.stringMatching(/reserved field name "__proto__"/) as unknown,
    });
  });
});

describe('reads', () => {
  it('filter and list work on the defined entity', async () => {
    await createTask({ title: 'Findable', code: 'FND' });
    const { status, body } = await suite.api<Json[]>('GET', `${tasks()}${query({ q: { code: 'FND' } })}`, {
      token: SERVICE,
    });
    expect(status).toBe(200);
    expect(body.map((record) => record.title)).toEqual(['Findable']);
  });
});
