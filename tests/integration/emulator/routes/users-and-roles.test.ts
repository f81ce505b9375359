import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall, type Json } from '../api';

/** The app's byte budget for records, lowered by a test to refuse the next record (undefined: as shipped). */
let mockRecordBudget: number | undefined;
jest.mock('@/emulator/store/budgets', () => {
  const actual = jest.requireActual<typeof import('@/emulator/store/budgets')>('@/emulator/store/budgets');
  return {
    ...actual,
    get MAX_APP_RECORD_BYTES() {
      return mockRecordBudget ?? actual.MAX_APP_RECORD_BYTES;
    },
  };
});

let emulator: RunningEmulator;
let api: ApiCall;
let userToken: string;
let adminToken: string;
const APP = 'coming-soon';
const me = entityPath(APP, 'User', '/me');

beforeAll(async () => {
  emulator = await startTestEmulator();
  api = apiClient(emulator);
  userToken = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  adminToken = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
});
afterAll(() => emulator.close());

describe('User/me', () => {
  it('returns the current user', async () => {
    const { status, body } = await api('GET', me, { token: userToken });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 'user-user', email: 'user@example.com', full_name: 'Uli User', role: 'user' });
  });

  it('answers 401 without a token and 403 for the service role, which is nobody', async () => {
    expect((await api('GET', me)).status).toBe(401);
    expect((await api('GET', me, { token: serviceTokenFor(APP) })).status).toBe(403);
  });

  it('updates custom fields of the own record; email and full_name belong to the account and are ignored', async () => {
    const { status, body } = await api('PUT', me, {
      json: { full_name: 'Uli Updated', email: 'other@example.com', theme: 'dark' },
      token: userToken,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ full_name: 'Uli User', email: 'user@example.com', theme: 'dark', role: 'user' });
    expect((await api('GET', me, { token: userToken })).body).toMatchObject({
      full_name: 'Uli User',
      theme: 'dark',
    });
  });

  it("shows the fields the SDK's User type lists as built in, and a user cannot set them", async () => {
    const builtIn = { app_id: APP, is_service: false, disabled: null, is_verified: true };
    expect((await api('GET', me, { token: userToken })).body).toMatchObject(builtIn);
    const forged = { is_verified: false, disabled: true, is_service: true, app_id: 'other-app', _app_role: 'admin' };
    const { status, body } = await api('PUT', me, { json: { ...forged, hobby: 'chess' }, token: userToken });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ...builtIn, hobby: 'chess' });
    const after = (await api('GET', me, { token: userToken })).body;
    expect(after).toMatchObject(builtIn);
    expect(after).not.toHaveProperty('_app_role');
  });

  it('ignores a role sent for the own record, for users and admins alike', async () => {
    const user = await api('PUT', me, { json: { role: 'admin', mood: 'hopeful' }, token: userToken });
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ role: 'user', mood: 'hopeful' });
    const admin = await api('PUT', me, { json: { role: 'user' }, token: adminToken });
    expect(admin.status).toBe(200);
    expect((await api('GET', me, { token: adminToken })).body).toMatchObject({ role: 'admin' });
  });

  it('keeps the byte budget of a record on the merged user record, not only on the body', async () => {
    const part = 'x'.repeat(600 * 1024);
    expect((await api('PUT', me, { json: { notes_a: part }, token: userToken })).status).toBe(200);
    const second = await api('PUT', me, { json: { notes_b: part }, token: userToken });
    expect(second).toMatchObject({ status: 413, body: { code: 'record_too_large' } });
    const stored = (await api('GET', me, { token: userToken })).body;
    expect(stored).not.toHaveProperty('notes_b');
    expect((await api('PUT', me, { json: { notes_a: null }, token: userToken })).status).toBe(200);
  });

  it('refuses malformed bodies without changing the user', async () => {
    const before = (await api('GET', me, { token: userToken })).body;
    expect((await api('PUT', me, { json: ['x'], token: userToken })).status).toBe(400);
    expect((await api('PUT', me, { json: { $where: 1 }, token: userToken })).status).toBe(400);
    expect((await api('GET', me, { token: userToken })).body).toEqual(before);
  });
});

describe('the User entity', () => {
  it('shows a user only itself, and admins or the service role everyone', async () => {
    const own = await api<Json[]>('GET', entityPath(APP, 'User'), { token: userToken });
    expect(own.body.map((user) => user.id)).toEqual(['user-user']);
    const all = await api<Json[]>('GET', entityPath(APP, 'User'), { token: adminToken });
    expect(all.body.map((user) => user.id).sort()).toEqual(['user-admin', 'user-user']);
    const service = await api<Json[]>('GET', entityPath(APP, 'User'), { token: serviceTokenFor(APP) });
    expect(service.body).toHaveLength(2);
    // Another user's record is not one a user may read: not found, as if it did not exist.
    expect((await api('GET', entityPath(APP, 'User', '/user-admin'), { token: userToken })).status).toBe(404);
    expect((await api('GET', entityPath(APP, 'User'))).status).toBe(401);
  });

  it("lets admins change another user's role but not users", async () => {
    const path = entityPath(APP, 'User', '/user-user');
    expect(
      (await api('PUT', entityPath(APP, 'User', '/user-admin'), { json: { role: 'user' }, token: userToken })).status,
    ).toBe(404);
    const promoted = await api('PUT', path, { json: { role: 'admin' }, token: adminToken });
    expect(promoted.body).toMatchObject({ role: 'admin' });
    expect((await api('GET', entityPath(APP, 'User'), { token: userToken })).body).toHaveLength(2);
    expect((await api('PUT', path, { json: { role: 'owner' }, token: serviceTokenFor(APP) })).status).toBe(400);
    expect((await api('PUT', path, { json: { role: 'user' }, token: serviceTokenFor(APP) })).body).toMatchObject({
      role: 'user',
    });
  });

  it('never creates users directly: a create answers as if it had, and stores nothing', async () => {
    const single = await api('POST', entityPath(APP, 'User'), { json: { email: 'x@example.com' }, token: adminToken });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ email: 'x@example.com', created_by: 'admin@example.com', is_sample: false });
    const bulk = await api('POST', entityPath(APP, 'User', '/bulk'), {
      json: [{ email: 'y@example.com' }],
      token: userToken,
    });
    expect(bulk).toMatchObject({ status: 200, body: {} });
    const users = await api<Json[]>('GET', entityPath(APP, 'User'), { token: adminToken });
    expect(users.body.map((user) => user.email).sort()).toEqual(['admin@example.com', 'user@example.com']);
    expect((await api('POST', entityPath(APP, 'User'), { json: { email: 'z@example.com' } })).status).toBe(401);
  });

  it('never creates users by import either, not even for the service role', async () => {
    for (const token of [serviceTokenFor(APP), adminToken]) {
      const form = new FormData();
      form.append('file', new File(['email,role\nforged@example.com,admin\n'], 'users.csv', { type: 'text/csv' }));
      const imported = await api('POST', entityPath(APP, 'User', '/import'), { body: form, token });
      expect(imported).toMatchObject({ status: 403, body: { code: 'permission_denied' } });
    }
    const users = await api<Json[]>('GET', entityPath(APP, 'User'), { token: serviceTokenFor(APP) });
    expect(users.body.map((user) => user.email)).not.toContain('forged@example.com');
  });

  it("lets only admins delete users, and a deleted user's token stops working", async () => {
    await api('POST', '/apps/coming-soon/users/invite-user', {
      json: { user_email: 'temp@example.com', role: 'user' },
      token: adminToken,
    });
    const sso = await api('GET', '/apps/coming-soon/auth/sso/accesstoken/' + (await findUserId('temp@example.com')), {
      token: serviceTokenFor(APP),
    });
    const tempToken = sso.body.access_token as string;
    expect((await api('GET', me, { token: tempToken })).status).toBe(200);
    const id = await findUserId('temp@example.com');
    expect((await api('DELETE', entityPath(APP, 'User', `/${id}`), { token: userToken })).status).toBe(403);
    expect((await api('DELETE', entityPath(APP, 'User', `/${id}`), { token: adminToken })).status).toBe(200);
    expect((await api('GET', me, { token: tempToken })).status).toBe(401);
  });
});

describe('invitations', () => {
  it('leave no account, ticket or mail behind when the byte budget refuses the new user', async () => {
    const email = 'over-budget@example.com';
    const invite = () =>
      api('POST', '/apps/coming-soon/users/invite-user', {
        json: { user_email: email, role: 'user' },
        token: adminToken,
      });
    mockRecordBudget = 0;
    try {
      expect(await invite()).toMatchObject({ status: 413, body: { code: 'storage_full' } });
    } finally {
      mockRecordBudget = undefined;
    }
    const mailsTo = () => emulator.outbox().filter((mail) => mail.to === email);
    expect(mailsTo()).toEqual([]);
    // A reset is mailed only to an existing account: none was made.
    expect((await api('POST', '/apps/coming-soon/auth/reset-password-request', { json: { email } })).status).toBe(200);
    expect(mailsTo()).toEqual([]);
    // With room, the invitation makes the user and mails it a ticket.
    expect((await invite()).status).toBe(200);
    expect(mailsTo()).toEqual([expect.objectContaining({ body: expect.stringContaining('Choose your password') })]);
  });

  it('mark an invited address unverified until its owner chooses a password', async () => {
    const email = 'invitee-verified@example.com';
    const invited = await api('POST', '/apps/coming-soon/users/invite-user', {
      json: { user_email: email, role: 'user' },
      token: adminToken,
    });
    expect(invited.status).toBe(200);
    const path = entityPath(APP, 'User', `/${await findUserId(email)}`);
    expect((await api('GET', path, { token: adminToken })).body).toMatchObject({ email, is_verified: false });
    const ticket = /token \(valid 7 days\): (\S+)/.exec(
      emulator.outbox().find((mail) => mail.to === email)?.body ?? '',
    )?.[1];
    const chosen = await api('POST', '/apps/coming-soon/auth/reset-password', {
      json: { reset_token: ticket, new_password: 'invitee-password-1' },
    });
    expect(chosen.status).toBe(200);
    expect((await api('GET', path, { token: adminToken })).body).toMatchObject({ email, is_verified: true });
  });
});

async function findUserId(email: string): Promise<string> {
  const { body } = await api<Json[]>('GET', entityPath(APP, 'User'), { token: serviceTokenFor(APP) });
  const user = body.find((entry) => entry.email === email);
  if (!user) throw new Error(`no user ${email}`);
  return user.id as string;
}
