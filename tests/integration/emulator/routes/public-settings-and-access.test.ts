import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall } from '../api';

let emulator: RunningEmulator;
let api: ApiCall;

beforeAll(async () => {
  emulator = await startTestEmulator();
  api = apiClient(emulator);
});
afterAll(() => emulator.close());

const settings = (appId: string, token?: string) =>
  api('GET', `/apps/public/prod/public-settings/by-id/${appId}`, token === undefined ? {} : { token });

describe('public settings', () => {
  it('answers a public app for anonymous visitors with its id and settings', async () => {
    const { status, body } = await settings('coming-soon');
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 'coming-soon', public_settings: { requires_auth: false, access: 'public' } });
  });

  it('answers 403 auth_required for anonymous visitors of a login-only app', async () => {
    const { status, body } = await settings('members-only');
    expect(status).toBe(403);
    expect(body).toEqual({
      message: 'Authentication required',
      code: 'auth_required',
      extra_data: { reason: 'auth_required' },
      error: { message: 'Authentication required', code: 'auth_required' },
    });
  });

  it('answers a login-only app once any account is logged in', async () => {
    const token = await loginToken(emulator, 'members-only', SEEDED_ACCOUNTS.outsider.email);
    const { status, body } = await settings('members-only', token);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 'members-only', public_settings: { requires_auth: true } });
  });

  it('answers 403 auth_required for anonymous visitors of a registered-users app', async () => {
    const { status, body } = await settings('invite-only');
    expect(status).toBe(403);
    expect(body).toMatchObject({ extra_data: { reason: 'auth_required' } });
  });

  it('answers 403 user_not_registered for a logged-in account that is not registered', async () => {
    const token = await loginToken(emulator, 'invite-only', SEEDED_ACCOUNTS.outsider.email);
    const { status, body } = await settings('invite-only', token);
    expect(status).toBe(403);
    expect(body).toEqual({
      message: 'User not registered for this app',
      code: 'user_not_registered',
      extra_data: { reason: 'user_not_registered' },
      error: { message: 'User not registered for this app', code: 'user_not_registered' },
    });
  });

  it('answers a registered-users app for a registered member and for the service role', async () => {
    const token = await loginToken(emulator, 'invite-only', SEEDED_ACCOUNTS.member.email);
    expect((await settings('invite-only', token)).status).toBe(200);
    expect((await settings('invite-only', serviceTokenFor('invite-only'))).status).toBe(200);
  });

  it('treats a dead token like no token so the site is sent to the login page instead of a dead end', async () => {
    expect((await settings('members-only', 'not-a-real-token')).body).toMatchObject({
      extra_data: { reason: 'auth_required' },
    });
    expect((await settings('coming-soon', 'not-a-real-token')).status).toBe(200);
  });

  it('answers 404 for an unknown app', async () => {
    const { status, body } = await settings('no-such-app');
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'app_not_found' });
  });
});

describe('the access gate on app calls', () => {
  it('refuses anonymous entity reads on a login-only app with auth_required', async () => {
    const { status, body } = await api('GET', entityPath('members-only', 'Note'));
    expect(status).toBe(403);
    expect(body).toMatchObject({ extra_data: { reason: 'auth_required' } });
  });

  it('refuses an unregistered account on a registered-users app with user_not_registered', async () => {
    const token = await loginToken(emulator, 'invite-only', SEEDED_ACCOUNTS.outsider.email);
    for (const path of [entityPath('invite-only', 'Note'), entityPath('invite-only', 'User', '/me')]) {
      const { status, body } = await api('GET', path, { token });
      expect(status).toBe(403);
      expect(body).toMatchObject({ extra_data: { reason: 'user_not_registered' } });
    }
  });

  it('lets anonymous visitors read a public app but not write to it', async () => {
    expect((await api('GET', entityPath('coming-soon', 'Note'))).status).toBe(200);
    const write = await api('POST', entityPath('coming-soon', 'Note'), { json: { text: 'hi' } });
    expect(write.status).toBe(401);
    expect(write.body).toMatchObject({ code: 'auth_required' });
  });

  it('answers 401 for a malformed, forged, expired-looking or foreign token', async () => {
    const valid = await loginToken(emulator, 'coming-soon', SEEDED_ACCOUNTS.user.email);
    const [header, payload] = valid.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ sub: 'user-admin', app_id: 'coming-soon', ver: 0, iat: 0, exp: 9e9 }),
    ).toString('base64url');
    const foreign = await loginToken(emulator, 'members-only', SEEDED_ACCOUNTS.user.email);
    const bad = [
      `${valid}x`,
      `${header}.${forgedPayload}.${valid.split('.')[2]}`,
      `${header}.${payload}`,
      foreign,
      'garbage',
    ];
    for (const token of bad) {
      const { status, body } = await api('GET', entityPath('coming-soon', 'User', '/me'), { token });
      expect({ token, status }).toEqual({ token, status: 401 });
      expect(body).toMatchObject({ code: 'invalid_token' });
    }
    const malformedHeader = await api('GET', entityPath('coming-soon', 'Note'), {
      headers: { Authorization: 'Basic abc' },
    });
    expect(malformedHeader.status).toBe(401);
  });

  it('rejects an X-App-Id header naming a different app than the path', async () => {
    const { status, body } = await api('GET', entityPath('coming-soon', 'Note'), {
      headers: { 'X-App-Id': 'members-only' },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'app_id_mismatch' });
  });
});
