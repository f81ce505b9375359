/**
 * Every call's method, path, query encoding, payload and headers, checked on the wire against a
 * recording server (docs/SPEC.md section 7). Behaviour against the real API is covered by the other suites.
 */
import { createClient } from '@/lib/sdk/client/create-client';

import type { TestClient, TestEntities } from './harness';
import { startRecordingServer, type RecordingServer } from './recording-server';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.respond(() => ({ status: 200, body: { ok: true } }));
});

function client(overrides: Partial<Parameters<typeof createClient>[0]> = {}): TestClient {
  return createClient<TestEntities>({ serverUrl: server.url, appId: 'app-1', token: 'user-token', ...overrides });
}

function last() {
  const request = server.requests[server.requests.length - 1];
  if (!request) throw new Error('no request');
  return request;
}

describe('headers', () => {
  it('sends X-App-Id, Accept, the bearer token and custom headers; no X-Origin-URL outside a browser', async () => {
    await client({ headers: { 'X-Trace': 't-1', 'X-App-Id': 'spoofed' } }).entities.Todo.list();
    const { headers } = last();
    expect(headers['x-app-id']).toBe('app-1');
    expect(headers.authorization).toBe('Bearer user-token');
    expect(headers.accept).toBe('application/json');
    expect(headers['x-trace']).toBe('t-1');
    expect(headers['x-origin-url']).toBeUndefined();
  });

  it('sends no Authorization header without a token and picks up setToken at once', async () => {
    const anonymous = client({ token: null });
    await anonymous.entities.Todo.list();
    expect(last().headers.authorization).toBeUndefined();
    anonymous.setToken('fresh', false);
    await anonymous.entities.Todo.list();
    expect(last().headers.authorization).toBe('Bearer fresh');
  });

  it('service-role calls carry the service token and name the signed-in user', async () => {
    await client({ serviceToken: 'svc' }).asServiceRole.entities.Todo.list();
    expect(last().headers.authorization).toBe('Bearer svc');
    expect(last().headers['on-behalf-of']).toBe('Bearer user-token');
  });

  it('function calls carry the functions version when one is configured', async () => {
    await client({ functionsVersion: 'draft' }).functions.invoke('fn', {});
    expect(last().headers['base44-functions-version']).toBe('draft');
    await client().functions.invoke('fn', {});
    expect(last().headers['base44-functions-version']).toBeUndefined();
  });
});

describe('entities', () => {
  it('list encodes sort, limit, skip and comma-joined fields', async () => {
    await client().entities.Todo.list('-created_date', 20, 40, ['title', 'done']);
    expect(last().method).toBe('GET');
    const url = new URL(last().url, server.url);
    expect(url.pathname).toBe('/api/apps/app-1/entities/Todo');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sort: '-created_date',
      limit: '20',
      skip: '40',
      fields: 'title,done',
    });
  });

  it('list without arguments sends no query at all', async () => {
    await client().entities.Todo.list();
    expect(last().url).toBe('/api/apps/app-1/entities/Todo');
  });

  it('filter sends the filter as JSON in q', async () => {
    const filter = { status: { $in: ['open', 'new'] }, title: { $regex: '^a&b=c' } };
    await client().entities.Todo.filter(filter, 'title', 5);
    const url = new URL(last().url, server.url);
    expect(JSON.parse(url.searchParams.get('q') ?? '')).toEqual(filter);
    expect(url.searchParams.get('sort')).toBe('title');
    expect(url.searchParams.get('limit')).toBe('5');
  });

  it('get, update and delete address one record; update is a PUT with the partial record', async () => {
    const todos = client().entities.Todo;
    await todos.get('r1');
    expect([last().method, last().url]).toEqual(['GET', '/api/apps/app-1/entities/Todo/r1']);
    await todos.update('r1', { done: true });
    expect([last().method, last().url]).toEqual(['PUT', '/api/apps/app-1/entities/Todo/r1']);
    expect(last().headers['content-type']).toBe('application/json');
    expect(server.jsonBody()).toEqual({ done: true });
    await todos.delete('r1');
    expect([last().method, last().url, last().body.length]).toEqual(['DELETE', '/api/apps/app-1/entities/Todo/r1', 0]);
  });

  it('create posts the record; bulkCreate posts the list to /bulk', async () => {
    const todos = client().entities.Todo;
    await todos.create({ title: 'a' });
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/entities/Todo']);
    expect(server.jsonBody()).toEqual({ title: 'a' });
    await todos.bulkCreate([{ title: 'a' }, { title: 'b' }]);
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/entities/Todo/bulk']);
    expect(server.jsonBody()).toEqual([{ title: 'a' }, { title: 'b' }]);
  });

  it('deleteMany is a DELETE on the collection with the filter as JSON body', async () => {
    await client().entities.Todo.deleteMany({ done: true });
    expect([last().method, last().url]).toEqual(['DELETE', '/api/apps/app-1/entities/Todo']);
    expect(server.jsonBody()).toEqual({ done: true });
  });

  it('importEntities uploads the file as multipart field "file" with its name', async () => {
    await client().entities.Todo.importEntities(new File(['title\nx\n'], 'todos.csv', { type: 'text/csv' }));
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/entities/Todo/import']);
    expect(String(last().headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const file = (await server.formBody()).get('file') as File;
    expect(file.name).toBe('todos.csv');
    expect(await file.text()).toBe('title\nx\n');
  });

  it('URL-encodes every path segment: app id, entity name and record id', async () => {
    const odd = createClient<TestEntities>({ serverUrl: server.url, appId: 'app 1', token: null });
    await odd.entity('Odd/Name').get('a/b?c#d');
    expect(last().url).toBe('/api/apps/app%201/entities/Odd%2FName/a%2Fb%3Fc%23d');
  });
});

describe('auth', () => {
  it.each([
    ['me', (c: TestClient) => c.auth.me(), 'GET', '/api/apps/app-1/entities/User/me', undefined],
    [
      'updateMe',
      (c: TestClient) => c.auth.updateMe({ full_name: 'N' }),
      'PUT',
      '/api/apps/app-1/entities/User/me',
      { full_name: 'N' },
    ],
    [
      'register',
      (c: TestClient) => c.auth.register({ email: 'a@b.c', password: 'pw' }),
      'POST',
      '/api/apps/app-1/auth/register',
      { email: 'a@b.c', password: 'pw' },
    ],
    [
      'verifyOtp',
      (c: TestClient) => c.auth.verifyOtp({ email: 'a@b.c', otpCode: '123456' }),
      'POST',
      '/api/apps/app-1/auth/verify-otp',
      { email: 'a@b.c', otp_code: '123456' },
    ],
    [
      'resendOtp',
      (c: TestClient) => c.auth.resendOtp('a@b.c'),
      'POST',
      '/api/apps/app-1/auth/resend-otp',
      { email: 'a@b.c' },
    ],
    [
      'resetPasswordRequest',
      (c: TestClient) => c.auth.resetPasswordRequest('a@b.c'),
      'POST',
      '/api/apps/app-1/auth/reset-password-request',
      { email: 'a@b.c' },
    ],
    [
      'resetPassword',
      (c: TestClient) => c.auth.resetPassword({ resetToken: 't', newPassword: 'n' }),
      'POST',
      '/api/apps/app-1/auth/reset-password',
      { reset_token: 't', new_password: 'n' },
    ],
    [
      'changePassword',
      (c: TestClient) => c.auth.changePassword({ userId: 'u', currentPassword: 'c', newPassword: 'n' }),
      'POST',
      '/api/apps/app-1/auth/change-password',
      { user_id: 'u', current_password: 'c', new_password: 'n' },
    ],
    [
      'inviteUser',
      (c: TestClient) => c.auth.inviteUser('a@b.c', 'admin'),
      'POST',
      '/api/apps/app-1/users/invite-user',
      { user_email: 'a@b.c', role: 'admin' },
    ],
  ])('%s', async (_name, call, method, path, body) => {
    await call(client());
    expect([last().method, last().url]).toEqual([method, path]);
    if (body === undefined) expect(last().body.length).toBe(0);
    else expect(server.jsonBody()).toEqual(body);
  });

  it('login sends turnstile_token only when given', async () => {
    server.respond(() => ({ status: 200, body: { access_token: 'tok', user: { id: 'u' } } }));
    await client().auth.login('a@b.c', 'pw');
    expect(server.jsonBody()).toEqual({ email: 'a@b.c', password: 'pw' });
    await client().auth.login('a@b.c', 'pw', 'captcha');
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/auth/login']);
    expect(server.jsonBody()).toEqual({ email: 'a@b.c', password: 'pw', turnstile_token: 'captcha' });
  });

  it('sso.getAccessToken reads the user token with the service role', async () => {
    await client({ serviceToken: 'svc' }).asServiceRole.sso.getAccessToken('user/1');
    expect([last().method, last().url]).toEqual(['GET', '/api/apps/app-1/auth/sso/accesstoken/user%2F1']);
  });
});

describe('integrations, functions, logs, settings, agents', () => {
  it('Core and installable integrations post named parameters to their paths', async () => {
    const c = client();
    await c.integrations.Core.SendEmail({ to: 'a@b.c', subject: 's', body: 'b' });
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/integration-endpoints/Core/SendEmail']);
    expect(server.jsonBody()).toEqual({ to: 'a@b.c', subject: 's', body: 'b' });
    await c.integration('Slack Tools', 'Post/Message')({ text: 'hi' });
    expect(last().url).toBe(
      '/api/apps/app-1/integration-endpoints/installable/Slack%20Tools/integration-endpoints/Post%2FMessage',
    );
  });

  it('functions.invoke posts to /functions/{name} and resolves with data and status', async () => {
    server.respond(() => ({ status: 200, body: { total: 3 } }));
    const response = await client().functions.invoke<{ total: number }>('sum orders', { year: 2025 });
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/functions/sum%20orders']);
    expect(server.jsonBody()).toEqual({ year: 2025 });
    expect(response.data).toEqual({ total: 3 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('app logs: page visit, logs and stats with query parameters', async () => {
    const c = client();
    await c.appLogs.logUserInApp('Coming Soon');
    expect([last().method, last().url]).toEqual(['POST', '/api/app-logs/app-1/log-user-in-app/Coming%20Soon']);
    await c.appLogs.fetchLogs({ limit: 10, page_name: 'Home' });
    expect([last().method, last().url]).toEqual(['GET', '/api/app-logs/app-1?limit=10&page_name=Home']);
    await c.appLogs.getStats();
    expect([last().method, last().url]).toEqual(['GET', '/api/app-logs/app-1/stats']);
  });

  it('public settings are read by app id', async () => {
    await client().publicSettings.get();
    expect([last().method, last().url]).toEqual(['GET', '/api/apps/public/prod/public-settings/by-id/app-1']);
  });

  it('agents: list (with JSON q), create, read, add message', async () => {
    const agents = client().agents;
    await agents.listConversations({ q: { agent_name: 'helper' }, limit: 5 });
    const listUrl = new URL(last().url, server.url);
    expect(listUrl.pathname).toBe('/api/apps/app-1/agents/conversations');
    expect(JSON.parse(listUrl.searchParams.get('q') ?? '')).toEqual({ agent_name: 'helper' });
    expect(listUrl.searchParams.get('limit')).toBe('5');
    await agents.createConversation({ agent_name: 'helper', metadata: { topic: 'x' } });
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/agents/conversations']);
    expect(server.jsonBody()).toEqual({ agent_name: 'helper', metadata: { topic: 'x' } });
    await agents.getConversation('c/1');
    expect([last().method, last().url]).toEqual(['GET', '/api/apps/app-1/agents/conversations/c%2F1']);
    await agents.addMessage({ id: 'c1' }, { role: 'user', content: 'hi' });
    expect([last().method, last().url]).toEqual(['POST', '/api/apps/app-1/agents/conversations/v2/c1/messages']);
    expect(server.jsonBody()).toEqual({ role: 'user', content: 'hi' });
  });

  it('the WhatsApp link is built, not requested, and carries the user token (never the service token)', () => {
    const c = client({ serviceToken: 'svc', token: 'tok en' });
    expect(c.agents.getWhatsAppConnectURL('sales bot')).toBe(
      `${server.url}/api/apps/app-1/agents/sales%20bot/whatsapp?token=tok%20en`,
    );
    expect(c.asServiceRole.agents.getWhatsAppConnectURL('bot')).toBe(
      `${server.url}/api/apps/app-1/agents/bot/whatsapp?token=tok%20en`,
    );
    expect(client({ token: null }).agents.getWhatsAppConnectURL('bot')).toBe(
      `${server.url}/api/apps/app-1/agents/bot/whatsapp`,
    );
    expect(server.requests).toHaveLength(0);
  });
});
