import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor } from '@/tests/support/emulator';

import { suiteEmulator, type Json } from '../api';

/** Edges of the routes added for the current @base44/sdk: bad input is refused and changes nothing. */

const suite = suiteEmulator();
const APP = 'coming-soon';
let userToken: string;

beforeAll(async () => {
  userToken = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.user.email);
});

describe('functions.fetch', () => {
  it('takes the app from X-App-Id or the service token, and passes method, path and query', async () => {
    const byHeader = await suite.api<Json>('PUT', '/functions/hello/a/b?q=1', {
      headers: { 'X-App-Id': APP },
      json: { name: 'Header' },
    });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toMatchObject({
      message: 'Hello, Header!',
      user: null,
      http: { method: 'PUT', subpath: 'a/b', query: { q: '1' } },
    });
    const byService = await suite.api<Json>('GET', '/functions/hello', { token: serviceTokenFor(APP) });
    expect(byService.body).toMatchObject({ app_id: APP, service_role: true, http: { method: 'GET', subpath: '' } });
  });

  it('refuses a call that names no app (several are seeded), a bad token and an unknown function', async () => {
    expect((await suite.api('GET', '/functions/hello')).body).toMatchObject({ code: 'app_required' });
    expect((await suite.api('GET', '/functions/hello', { token: 'forged.token.x' })).status).toBe(400);
    expect(
      (await suite.api('GET', '/functions/hello', { headers: { 'X-App-Id': APP }, token: 'forged.token.x' })).status,
    ).toBe(401);
    expect((await suite.api('GET', '/functions/nope', { headers: { 'X-App-Id': APP } })).body).toMatchObject({
      code: 'function_not_found',
    });
    expect((await suite.api('GET', '/functions/hello', { headers: { 'X-App-Id': 'members-only' } })).status).toBe(403);
  });
});

describe('analytics', () => {
  const track = (json: unknown, token?: string) =>
    suite.api('POST', `/apps/${APP}/analytics/track/batch`, { json, ...(token ? { token } : {}) });
  const kept = async () => (await suite.api<Json[]>('GET', `/_emulator/apps/${APP}/analytics`)).body;

  it('refuses malformed batches and bad tokens, keeping nothing', async () => {
    expect((await track({ events: 'x' })).status).toBe(400);
    expect((await track({ events: [{ event_name: 'ok' }, { event_name: 5 }] })).body).toMatchObject({
      code: 'invalid_event',
    });
    expect((await track({ events: [{ event_name: 'ok', properties: [] }] })).status).toBe(400);
    expect((await track({ events: [{ event_name: 'ok' }] }, 'forged.token.x')).status).toBe(401);
    expect(await kept()).toEqual([]);
  });

  it('keeps valid events with their session context', async () => {
    const accepted = await track(
      { events: [{ event_name: 'visit', properties: { a: 1 }, page_url: '/', user_id: null, session_id: 's1' }] },
      userToken,
    );
    expect(accepted.body).toEqual({ success: true, accepted: 1 });
    expect(await kept()).toEqual([
      expect.objectContaining({ event_name: 'visit', properties: { a: 1 }, page_url: '/', session_id: 's1' }),
    ]);
  });
});

describe('connectors, SSO and provider logins', () => {
  it('check who calls before declining', async () => {
    expect((await suite.api('GET', `/apps/${APP}/external-auth/tokens/x`, { token: userToken })).body).toMatchObject({
      code: 'admin_required',
    });
    expect((await suite.api('GET', `/apps/${APP}/app-user-auth/connectors/c/token`)).status).toBe(401);
    expect(
      (await suite.api('GET', `/apps/${APP}/auth/sso/idtoken/user-user`, { token: userToken })).body,
    ).toMatchObject({ code: 'service_role_required' });
    expect(
      (await suite.api('GET', `/apps/${APP}/auth/sso/idtoken/__proto__`, { token: serviceTokenFor(APP) })).status,
    ).toBe(404);
  });

  it('send an unknown provider name to a 404 page, never to the form', async () => {
    const response = await fetch(`${suite.emulator.url}/api/apps/auth/Not_A_Provider/login?app_id=${APP}`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('location')).toBeNull();
  });
});
