import { rmSync } from 'node:fs';

import type { RunningEmulator } from '@/emulator/core/types';
import {
  entityProject,
  loginToken,
  SEEDED_ACCOUNTS,
  serviceTokenFor,
  startTestEmulator,
} from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall, type Json } from '../api';

/**
 * The row rules of a project's `User` definition (`user.jsonc`): each operation judged by its own
 * rule on other users' records, admins included, the service role never; a user's own record stays
 * its own to read and change.
 */

const APP = 'coming-soon';
const USER_DEFINITION = {
  name: 'User',
  type: 'object',
  properties: { team: { type: 'string' } },
  rls: {
    read: { 'data.team': { $ne: 'hidden' } },
    update: { 'data.team': { $ne: 'frozen' } },
    delete: { 'data.team': { $ne: 'kept' } },
  },
};
const users = entityPath(APP, 'User');
const me = entityPath(APP, 'User', '/me');
const service = serviceTokenFor(APP);

let root: string;
let emulator: RunningEmulator;
let api: ApiCall;
let admin: string;

beforeAll(async () => {
  root = entityProject('user-rules-', [['user.jsonc', USER_DEFINITION]]);
  emulator = await startTestEmulator({ projectDir: root });
  api = apiClient(emulator);
  admin = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
});
afterAll(async () => {
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
});

/** A new user of the app on `team` (set by the user itself, which its own record always allows). */
async function userOnTeam(name: string, team: string): Promise<{ id: string; token: string }> {
  const email = `${name}@example.com`;
  const invited = await api('POST', `/apps/${APP}/users/invite-user`, {
    json: { user_email: email, role: 'user' },
    token: admin,
  });
  expect(invited.status).toBe(200);
  const id = (invited.body.user as Json).id as string;
  const sso = await api('GET', `/apps/${APP}/auth/sso/accesstoken/${id}`, { token: service });
  const token = sso.body.access_token as string;
  expect((await api('PUT', me, { token, json: { team } })).status).toBe(200);
  return { id, token };
}

async function stored(id: string): Promise<Json> {
  const { status, body } = await api('GET', entityPath(APP, 'User', `/${id}`), { token: service });
  expect(status).toBe(200);
  return body;
}

describe('the row rules of a project User definition', () => {
  it("refuses an admin's update its update rule refuses; the user itself and the service role still change it", async () => {
    const frozen = await userOnTeam('frozen', 'frozen');
    const byAdmin = await api('PUT', entityPath(APP, 'User', `/${frozen.id}`), { token: admin, json: { nick: 'x' } });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toMatchObject({ code: 'permission_denied' });
    expect(await stored(frozen.id)).not.toHaveProperty('nick');
    expect((await api('PUT', me, { token: frozen.token, json: { nick: 'own' } })).status).toBe(200);
    const byService = await api('PUT', entityPath(APP, 'User', `/${frozen.id}`), {
      token: service,
      json: { role: 'admin' },
    });
    expect(byService.status).toBe(200);
    expect(await stored(frozen.id)).toMatchObject({ nick: 'own', role: 'admin' });
  });

  it("refuses an admin's removal its delete rule refuses, one by one and by filter; the service role removes", async () => {
    const kept = await userOnTeam('kept', 'kept');
    const one = await api('DELETE', entityPath(APP, 'User', `/${kept.id}`), { token: admin });
    expect(one.status).toBe(403);
    const many = await api('DELETE', users, { token: admin, json: { email: 'kept@example.com' } });
    expect(many).toMatchObject({ status: 200, body: { deleted: 0 } });
    expect((await api('GET', me, { token: kept.token })).status).toBe(200);
    expect((await api('DELETE', entityPath(APP, 'User', `/${kept.id}`), { token: service })).status).toBe(200);
    expect((await api('GET', entityPath(APP, 'User', `/${kept.id}`), { token: service })).status).toBe(404);
  });

  it('judges each operation by its own rule: an admin changes a user its read rule hides, and is answered only the id', async () => {
    const hidden = await userOnTeam('hidden', 'hidden');
    const path = entityPath(APP, 'User', `/${hidden.id}`);
    expect((await api('GET', path, { token: admin })).status).toBe(404);
    const changed = await api('PUT', path, { token: admin, json: { nick: 'seen-not' } });
    expect(changed).toMatchObject({ status: 200, body: { id: hidden.id } });
    expect(changed.body).not.toHaveProperty('email');
    expect(await stored(hidden.id)).toMatchObject({ nick: 'seen-not' });
    expect((await api('GET', me, { token: hidden.token })).body).toMatchObject({ team: 'hidden' });
  });
});

describe('a User definition whose delete rule is false', () => {
  let lockedRoot: string;
  let locked: RunningEmulator;
  let call: ApiCall;

  beforeAll(async () => {
    const definition = { name: 'User', type: 'object', properties: {}, rls: { delete: false } };
    lockedRoot = entityProject('user-rules-locked-', [['user.jsonc', definition]]);
    locked = await startTestEmulator({ projectDir: lockedRoot });
    call = apiClient(locked);
  });
  afterAll(async () => {
    await locked.close();
    rmSync(lockedRoot, { recursive: true, force: true });
  });

  it("refuses an admin's deleteMany with 403 rather than answering 0 deleted; the service role still removes", async () => {
    const token = await loginToken(locked, APP, SEEDED_ACCOUNTS.admin.email);
    const many = await call('DELETE', users, { token, json: { email: SEEDED_ACCOUNTS.user.email } });
    expect(many.status).toBe(403);
    expect(many.body).toMatchObject({ code: 'permission_denied' });
    const byService = await call('DELETE', users, { token: service, json: { email: SEEDED_ACCOUNTS.user.email } });
    expect(byService).toMatchObject({ status: 200, body: { deleted: 1 } });
  });
});
