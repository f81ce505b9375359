import type { RunningEmulator } from '@/emulator/core/types';
import { serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient } from '../api';
import { runSdkScenario, stepValue, type StepResult } from './fixtures/run-sdk-scenario';

/**
 * What the unmodified @base44/sdk 0.8.50 sends today, served for real: see
 * fixtures/sdk-current-surface-scenario.ts for the calls; this test asserts on their results.
 */

jest.setTimeout(60_000);

let emulator: RunningEmulator;
let results: Record<string, StepResult>;
const APP = 'coming-soon';

beforeAll(async () => {
  emulator = await startTestEmulator();
  results = await runSdkScenario('sdk-current-surface-scenario.ts', emulator.url);
});
afterAll(() => emulator.close());

const value = <T>(step: string): T => stepValue<T>(results, step);

function failure(step: string): StepResult | undefined {
  expect({ step, ok: results[step]?.ok }).toEqual({ step, ok: false });
  return results[step];
}

it('routes installable integrations under integration-endpoints/installable, and keeps the older route', async () => {
  expect(failure('installable')).toMatchObject({
    status: 501,
    code: 'not_available_locally',
    message: expect.stringContaining('Slack.PostMessage'),
  });
  const older = await apiClient(emulator)('POST', `/apps/${APP}/installable/Slack/integration-endpoints/PostMessage`, {
    json: {},
  });
  expect(older.status).toBe(501);
});

it("runs custom integrations from the app's local modules with payload, path and query parameters", () => {
  expect(value('customEcho')).toEqual({
    success: true,
    status_code: 200,
    data: {
      app_id: APP,
      operation: 'echo',
      payload: { city: 'Köln' },
      path_params: { id: 'a/b' },
      query_params: { units: 'metric' },
      user: { id: 'user-user', email: 'user@example.com' },
    },
  });
  expect(value('customUpstreamError')).toEqual({
    success: false,
    status_code: 418,
    data: { error: 'short and stout' },
  });
  expect(failure('customMissing')).toMatchObject({ status: 404, code: 'integration_not_found' });
});

it('uploads a private file and reads it through a signed URL, with the reference client as it is', () => {
  const privateFile = value<{ file_uri: string; signed_url: string; status: number; text: string }>('privateFile');
  expect(privateFile.file_uri).toMatch(/^private\/[a-f0-9]{24}\/private\.txt$/);
  expect(privateFile.signed_url).toContain(`${emulator.url}/api/files/private/${APP}/`);
  expect(privateFile).toMatchObject({ status: 200, text: 'only by signed URL' });
});

it('stores agent messages posted to the v2 route and serves the Telegram connect link', () => {
  const agents = value<{ message: { role: string; content: string }; contents: string[] }>('agentsV2');
  expect(agents.message).toMatchObject({ role: 'user', content: 'via v2' });
  expect(agents.contents[0]).toBe('via v2');
  expect(value('telegram')).toEqual({
    path: `/api/apps/${APP}/agents/helper/telegram`,
    status: 501,
    type: 'text/html; charset=utf-8',
  });
});

it('invites users for admins only', () => {
  expect(value('inviteUser')).toMatchObject({ user: { email: 'invited@example.com', role: 'user' } });
  expect(emulator.outbox()).toEqual(expect.arrayContaining([expect.objectContaining({ to: 'invited@example.com' })]));
  expect(failure('inviteUserAsUser')).toMatchObject({ status: 403, code: 'admin_required' });
});

it('issues ID tokens to the service role', async () => {
  expect(value('idToken')).toMatchObject({
    sub: 'user-user',
    email: 'user@example.com',
    aud: APP,
    iss: emulator.url,
    name: 'Uli User',
  });
  const api = apiClient(emulator);
  expect((await api('GET', `/apps/${APP}/auth/sso/idtoken/user-user`)).status).toBe(401);
  const idToken = (await api<string>('GET', `/apps/${APP}/auth/sso/idtoken/user-user`, { token: serviceTokenFor(APP) }))
    .body;
  // An ID token is not an access token.
  expect((await api('GET', `/apps/${APP}/entities/User/me`, { token: idToken })).status).toBe(401);
});

it('declines connectors with a code the reference reads (body and X-Base44-Connector-Error)', async () => {
  for (const step of ['connectorToken', 'connectorCall', 'connectAppUser']) {
    expect({ step, ...failure(step) }).toMatchObject({ step, status: 501, code: 'connector_not_available_locally' });
  }
  const response = await fetch(`${emulator.url}/api/apps/${APP}/external-auth/tokens/googlecalendar`, {
    headers: { Authorization: `Bearer ${serviceTokenFor(APP)}`, Origin: 'http://localhost:3000' },
  });
  expect(response.headers.get('x-base44-connector-error')).toBe('connector_not_available_locally');
  expect(response.headers.get('access-control-expose-headers')).toContain('X-Base44-Connector-Error');
});

it('serves functions.fetch with the raw request, the app taken from the token', () => {
  expect(value('functionsFetch')).toMatchObject({
    status: 200,
    body: {
      message: 'Hello, Fetch!',
      app_id: APP,
      user: { email: 'user@example.com' },
      http: { method: 'POST', subpath: 'deep/path', query: { x: '1' }, body: '{"name":"Fetch"}' },
    },
  });
});

it("accepts the reference's analytics batches", () => {
  expect(value('analytics')).toMatchObject({ event_name: 'scenario_event', properties: { plan: 'pro' } });
});

it("sends loginWithProvider to the emulator's login form for the app", () => {
  const login =
    value<Record<string, { target: string; status: number; next: string; formStatus: number; form: string }>>(
      'loginWithProvider',
    );
  const fromUrl = encodeURIComponent('http://localhost:3000/after');
  expect(login.google?.target).toBe(`${emulator.url}/api/apps/auth/login?app_id=${APP}&from_url=${fromUrl}`);
  expect(login.sso?.target).toBe(`${emulator.url}/api/apps/${APP}/auth/sso/login?app_id=${APP}&from_url=${fromUrl}`);
  for (const hop of [login.google, login.sso]) {
    expect(hop).toMatchObject({ status: 303, next: `/login?app_id=${APP}&from_url=${fromUrl}`, formStatus: 200 });
    expect(hop?.form).toContain('<form method="post" action="/login">');
  }
});

it("ends the emulator session on the reference's logout navigation: the token is 401 afterwards", () => {
  expect(value('logout')).toEqual({
    me: 'user@example.com',
    target: `${emulator.url}/api/apps/auth/logout?from_url=${encodeURIComponent('http://localhost:3000/bye')}`,
    status: 303,
    location: 'http://localhost:3000/bye',
    after: { status: 401, code: 'invalid_token' },
  });
});
