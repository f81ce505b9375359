import { rmSync } from 'node:fs';

import type { RunningEmulator } from '@/emulator/core/types';
import {
  entityProject,
  loginToken,
  SEEDED_ACCOUNTS,
  serviceTokenFor,
  startTestEmulator,
} from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * Round-4 attacks on record writes, closed as classes: every field an updateMany operator names
 * is judged by the field rules, the create rule by the record as finally stored, and rules the
 * records layer could not honour are refused when the entity files load.
 */

const APP = 'coming-soon';
/** `ssn`: nobody reads it (everyone writes it); `locked`: everyone reads it, nobody writes it. */
const PERSON = {
  name: 'Person',
  type: 'object',
  properties: {
    title: { type: 'string' },
    ssn: { type: 'string', rls: { read: false, write: true } },
    locked: { type: 'string', rls: { read: true, write: false } },
    tags: { type: 'array', items: { type: 'string' } },
    score: { type: 'number' },
    meta: { type: 'object' },
    note: { type: 'string' },
  },
};
/** Anyone may create a listing only for themselves; upserts key it by slug. */
const LISTING = {
  name: 'Listing',
  type: 'object',
  properties: { slug: { type: 'string' }, owner: { type: 'string' }, title: { type: 'string' } },
  rls: { create: { 'data.owner': '{{user.email}}' }, read: true, update: true },
};
/** Everyone reads and adds; nobody but the service role changes or removes. */
const LEDGER = {
  name: 'Ledger',
  type: 'object',
  properties: { amount: { type: 'number' } },
  rls: { read: true, create: true, update: false, delete: false },
};
/** Read-only for everyone but the service role: `write: false` refuses creates and updates alike. */
const ARCHIVE = {
  name: 'Archive',
  type: 'object',
  properties: { slug: { type: 'string' } },
  rls: { read: true, write: false },
};
const PEOPLE = `/apps/${APP}/entities/Person`;
const ARCHIVES = `/apps/${APP}/entities/Archive`;
const LEDGERS = `/apps/${APP}/entities/Ledger`;
const LISTINGS = `/apps/${APP}/entities/Listing`;
const service = serviceTokenFor(APP);

const dirs: string[] = [];
function project(entities: Record<string, object>): string {
  const root = entityProject('rule-classes-', Object.entries(entities));
  dirs.push(root);
  return root;
}

let emulator: RunningEmulator;
let api: ApiCall;
let user: string;

beforeAll(async () => {
  emulator = await startTestEmulator({
    projectDir: project({
      'person.jsonc': PERSON,
      'listing.jsonc': LISTING,
      'ledger.jsonc': LEDGER,
      'archive.jsonc': ARCHIVE,
    }),
  });
  api = apiClient(emulator);
  user = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
});
afterAll(async () => {
  await emulator.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('updateMany judges every field an operator names, source and target', () => {
  const stored = { title: 'public', ssn: '123-45', locked: 'fixed', tags: ['a'], score: 1, meta: { x: 1 }, note: 'n' };
  let id: string;

  beforeAll(async () => {
    const created = await api('POST', PEOPLE, { token: service, json: stored });
    id = created.body.id as string;
  });

  it.each<[string, Json]>([
    ['$rename of a field the caller may not read into one it may', { $rename: { ssn: 'title' } }],
    ['$rename of a field it may read into one it may not write', { $rename: { note: 'locked' } }],
    ['$rename out of a field it may not write', { $rename: { locked: 'note' } }],
    ['$unset of a field it may not write', { $unset: { locked: '' } }],
    ['$unset of a field it may not read', { $unset: { ssn: '' } }],
    ['$set of a field it may not write', { $set: { locked: 'changed' } }],
    ['$set of a path inside a field it may not read', { $set: { 'ssn.x': 1 } }],
    ['$inc of a field it may not read', { $inc: { ssn: 1 } }],
    ['$mul of a field it may not write', { $mul: { locked: 2 } }],
    ['$min of a field it may not read', { $min: { ssn: '0' } }],
    ['$max of a field it may not read', { $max: { ssn: '999' } }],
    ['$push onto a field it may not read', { $push: { ssn: 'x' } }],
    ['$addToSet onto a field it may not write', { $addToSet: { locked: 'x' } }],
    ['$pull from a field it may not read', { $pull: { ssn: '123-45' } }],
    ['$currentDate of a field it may not write', { $currentDate: { locked: true } }],
  ])('%s is refused and changes nothing', async (_name, data) => {
    const answer = await api('PATCH', `${PEOPLE}/update-many`, { token: user, json: { query: {}, data } });
    expect(answer).toMatchObject({ status: 403, body: { code: 'field_permission_denied' } });
    expect((await api('GET', `${PEOPLE}/${id}`, { token: service })).body).toMatchObject(stored);
  });

  it('still applies operators on fields the caller may read and write', async () => {
    const answer = await api('PATCH', `${PEOPLE}/update-many`, {
      token: user,
      json: { query: {}, data: { $rename: { note: 'meta.note' }, $inc: { score: 1 }, $push: { tags: 'b' } } },
    });
    expect(answer).toMatchObject({ status: 200, body: { updated: 1 } });
    const after = (await api('GET', `${PEOPLE}/${id}`, { token: service })).body;
    expect(after).toMatchObject({
      ssn: '123-45',
      locked: 'fixed',
      score: 2,
      tags: ['a', 'b'],
      meta: { x: 1, note: 'n' },
    });
    expect(after).not.toHaveProperty('note');
  });
});

describe('bulk changes ask permission before they check the request', () => {
  it.each<[string, string, string, unknown]>([
    ['updateMany with an unknown filter operator', 'PATCH', '/update-many', { query: { $where: '1' }, data: {} }],
    ['updateMany with an unknown update operator', 'PATCH', '/update-many', { query: {}, data: { $bogus: 1 } }],
    ['updateMany without a query', 'PATCH', '/update-many', { data: { $set: { amount: 1 } } }],
    ['deleteMany with a list as the filter', 'DELETE', '', [1]],
  ])('%s is a 403 for a caller whose rule is false, not a 400', async (_name, method, suffix, json) => {
    const answer = await api(method, `${LEDGERS}${suffix}`, { token: user, json });
    expect(answer).toMatchObject({ status: 403, body: { code: 'permission_denied' } });
    // The service role, bound by no rule, gets the validation error.
    expect((await api(method, `${LEDGERS}${suffix}`, { token: service, json })).status).toBe(400);
  });

  it.each<[string, unknown]>([
    ['upsert with a list as the body', [1]],
    ['upsert without a key', { records: [{ slug: 'a' }] }],
    ['upsert with records that are no list', { key: 'slug', records: 'a' }],
  ])('%s is a 403 for a caller who may neither create nor update, not a 400', async (_name, json) => {
    const answer = await api('POST', `${ARCHIVES}/upsert`, { token: user, json });
    expect(answer).toMatchObject({ status: 403, body: { code: 'permission_denied' } });
    expect((await api('POST', `${ARCHIVES}/upsert`, { token: service, json })).status).toBe(400);
  });
});

describe('the create rule is judged on the record as finally stored', () => {
  it('refuses an upsert whose later item turns a new record into one the rule refuses, storing nothing', async () => {
    const answer = await api('POST', `${LISTINGS}/upsert`, {
      token: user,
      json: {
        key: 'slug',
        records: [
          { slug: 'flat-1', owner: SEEDED_ACCOUNTS.user.email, title: 'mine' },
          { slug: 'flat-1', owner: 'someone-else@example.com' },
        ],
      },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 'permission_denied' } });
    expect((await api<Json[]>('GET', LISTINGS, { token: service })).body).toEqual([]);
  });

  it('creates the record, as the last item of its key has it, when every step meets the rule', async () => {
    const answer = await api('POST', `${LISTINGS}/upsert`, {
      token: user,
      json: {
        key: 'slug',
        records: [
          { slug: 'flat-2', owner: SEEDED_ACCOUNTS.user.email, title: 'first' },
          { slug: 'flat-2', title: 'second' },
        ],
      },
    });
    expect(answer).toMatchObject({ status: 200, body: { created: 1, updated: 0 } });
    expect((await api<Json[]>('GET', LISTINGS, { token: service })).body).toEqual([
      expect.objectContaining({ slug: 'flat-2', owner: SEEDED_ACCOUNTS.user.email, title: 'second' }),
    ]);
  });
});

describe('rules the records layer could not honour are refused when the files load', () => {
  it.each<[string, object, RegExp]>([
    [
      'a field rule inside an object field',
      {
        name: 'Profile',
        properties: {
          meta: { type: 'object', properties: { secret: { type: 'string', rls: { read: false } } } },
        },
      },
      /profile\.jsonc: properties\.meta\.properties\.secret\.rls: field rules apply to an entity's own fields only/,
    ],
    [
      'a field rule on the items of an array field',
      { name: 'Profile', properties: { codes: { type: 'array', items: { type: 'string', rls: { read: false } } } } },
      /profile\.jsonc: properties\.codes\.items\.rls: field rules apply to an entity's own fields only/,
    ],
    [
      'a row rule outside the documented syntax',
      { name: 'Profile', properties: { n: { type: 'number' } }, rls: { read: { 'data.n': { $gt: 1 } } } },
      /profile\.jsonc: rls\.read is not a valid security rule: "\$gt" is not a rule operator/,
    ],
    [
      'a field rule naming a user attribute that does not exist',
      { name: 'Profile', properties: { n: { type: 'number', rls: { read: { created_by: '{{user.phone}}' } } } } },
      /profile\.jsonc: properties\.n\.rls\.read is not a valid security rule: "user\.phone" is not a user attribute/,
    ],
  ])('%s stops the start, naming the file and the path', async (_name, entity, message) => {
    await expect(startTestEmulator({ projectDir: project({ 'profile.jsonc': entity }) })).rejects.toThrow(message);
  });
});

describe('the service role’s stamp', () => {
  it('is stamped on what the service role creates, and no account may take its address', async () => {
    const created = await api('POST', PEOPLE, { token: service, json: { title: 'by service' } });
    expect(created.body).toMatchObject({ created_by: 'server@server.com', created_by_id: 'service-role' });
    const registered = await api('POST', `/apps/${APP}/auth/register`, {
      json: { email: 'Server@Server.com', password: 'a-long-password-1' },
    });
    expect(registered).toMatchObject({ status: 400, body: { code: 'reserved_email' } });
  });
});
