import path from 'node:path';

import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

let emulator: RunningEmulator;
let api: ApiCall;
let token: string;
const APP = 'coming-soon';

const logs: string[] = [];

beforeAll(async () => {
  // The seeded apps' own functions (hello), and the fixtures (failing, raw Response...) as the project's.
  emulator = await startTestEmulator({
    projectFunctionsDir: path.join(__dirname, 'fixtures/functions'),
    functionLog: (line) => logs.push(line),
  });
  api = apiClient(emulator);
  token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
});
afterAll(() => emulator.close());

describe('Core.UploadFile', () => {
  it('stores a multipart file and serves it at the returned URL', async () => {
    const form = new FormData();
    form.append('file', new File(['hello file'], 'greeting.txt', { type: 'text/plain' }));
    const { status, body } = await api('POST', `/apps/${APP}/integration-endpoints/Core/UploadFile`, {
      body: form,
      token,
    });
    expect(status).toBe(200);
    const url = body.file_url as string;
    expect(url.startsWith(`${emulator.url}/api/files/${APP}/`)).toBe(true);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('hello file');
    expect(served.headers.get('content-type')).toBe('text/plain');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves active content as a sandboxed download, never as a page on the emulator origin', async () => {
    const form = new FormData();
    form.append('file', new File(['<script>alert(1)</script>'], '../../evil.html', { type: 'text/html' }));
    const { body } = await api('POST', `/apps/${APP}/integration-endpoints/Core/UploadFile`, { body: form, token });
    const served = await fetch(body.file_url as string);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename\*=UTF-8''evil\.html$/);
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('answers 400 without a file part and 404 for unknown files', async () => {
    const { status, body } = await api('POST', `/apps/${APP}/integration-endpoints/Core/UploadFile`, {
      json: { file: 'not a file' },
      token,
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'missing_file' });
    expect((await fetch(`${emulator.url}/api/files/${APP}/${'0'.repeat(24)}/x.txt`)).status).toBe(404);
  });
});

describe('Core.SendEmail', () => {
  it('writes the e-mail to the outbox, readable as JSON and from the handle', async () => {
    const json = { to: 'friend@example.com', subject: 'Hi', body: 'See you soon', from_name: 'Site' };
    const { status } = await api('POST', `/apps/${APP}/integration-endpoints/Core/SendEmail`, { json, token });
    expect(status).toBe(200);
    const outbox = await api<Json[]>('GET', '/_emulator/outbox?to=friend@example.com');
    expect(outbox.body).toEqual([
      expect.objectContaining({ ...json, app_id: APP, id: expect.any(String), sent_at: expect.any(String) }),
    ]);
    expect(emulator.outbox().filter((mail) => mail.to === 'friend@example.com')).toHaveLength(1);
  });

  it("sends to any valid address, the service role's reserved one included (a recipient is no account)", async () => {
    const json = { to: 'server@server.com', subject: 'Report', body: 'Nightly report' };
    const { status } = await api('POST', `/apps/${APP}/integration-endpoints/Core/SendEmail`, { json, token });
    expect(status).toBe(200);
    expect(emulator.outbox().filter((mail) => mail.to === 'server@server.com')).toEqual([
      expect.objectContaining({ subject: 'Report', body: 'Nightly report' }),
    ]);
  });

  it('refuses missing or mistyped fields with 400 and sends nothing', async () => {
    const before = emulator.outbox().length;
    for (const json of [
      { to: 'x@example.com', subject: 'no body' },
      { to: 'not-an-address', subject: 's', body: 'b' },
      { to: 'x@example.com', subject: 1, body: 'b' },
    ]) {
      expect((await api('POST', `/apps/${APP}/integration-endpoints/Core/SendEmail`, { json, token })).status).toBe(
        400,
      );
    }
    expect(emulator.outbox()).toHaveLength(before);
  });
});

describe('integrations that need the hosted platform', () => {
  it.each(['InvokeLLM', 'GenerateImage', 'ExtractDataFromUploadedFile', 'SomethingNew'])(
    'answers 501 for Core.%s, saying it is not available locally',
    async (endpoint) => {
      const { status, body } = await api('POST', `/apps/${APP}/integration-endpoints/Core/${endpoint}`, {
        json: { prompt: 'x' },
        token,
      });
      expect(status).toBe(501);
      expect(body).toMatchObject({
        code: 'not_available_locally',
        message: expect.stringContaining('not available in the local emulator'),
      });
    },
  );

  it('answers 501 for installable packages on the spec path and the public SDK path', async () => {
    for (const route of [
      `/apps/${APP}/installable/slack/integration-endpoints/post`,
      `/apps/${APP}/integration-endpoints/installable/slack/integration-endpoints/post`,
    ]) {
      const { status, body } = await api('POST', route, { json: { text: 'x' }, token });
      expect(status).toBe(501);
      expect(body.message).toMatch(/slack\.post is not available in the local emulator/);
    }
  });

  it("refuses a payload that is not an object of named parameters, in the platform's words", async () => {
    const { status, body } = await api('POST', `/apps/${APP}/integration-endpoints/Core/SendEmail`, {
      json: 'hello',
      token,
    });
    expect(status).toBe(400);
    expect(body.message).toBe('Integration SendEmail must receive an object with named parameters, received: hello');
  });

  it("keeps the app's access gate", async () => {
    const { status, body } = await api('POST', '/apps/members-only/integration-endpoints/Core/SendEmail', { json: {} });
    expect(status).toBe(403);
    expect(body).toMatchObject({ extra_data: { reason: 'auth_required' } });
  });
});

describe('functions', () => {
  const invoke = (name: string, options: Parameters<ApiCall>[2] = {}) =>
    api('POST', `/apps/${APP}/functions/${name}`, options);

  it('invokes a function with the JSON payload and the calling user', async () => {
    const { status, body } = await invoke('hello', { json: { name: 'Ada', extra: { deep: [1] } }, token });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      message: 'Hello, Ada!',
      app_id: APP,
      user: { id: 'user-user', email: 'user@example.com', role: 'user' },
      service_role: false,
      payload: { name: 'Ada', extra: { deep: [1] } },
      http: { method: 'POST', path: `/api/apps/${APP}/functions/hello`, subpath: '' },
    });
  });

  it('passes a multipart body as sent: its fields as text, its files with their names', async () => {
    const form = new FormData();
    form.append('name', 'Files');
    form.append('options', JSON.stringify({ a: 1 }));
    form.append('doc', new File(['file body'], 'doc.txt', { type: 'text/plain' }));
    const { body } = await invoke('hello', { body: form, token });
    expect(body).toMatchObject({
      message: 'Hello, Files!',
      payload: { name: 'Files', options: '{"a":1}' },
      files: [{ field: 'doc', name: 'doc.txt', size: 9, text: 'file body' }],
    });
  });

  it('runs for visitors (user null) and the service role', async () => {
    expect((await invoke('hello', { json: {} })).body).toMatchObject({ user: null, service_role: false });
    expect((await invoke('hello', { json: {}, token: serviceTokenFor(APP) })).body).toMatchObject({
      user: null,
      service_role: true,
    });
  });

  it('answers 404 for unknown functions and names that try to leave the folder', async () => {
    for (const name of ['nope', '..%2F..%2Fseed', 'hello.ts', 'hello/entry.ts', '%2Fetc%2Fpasswd']) {
      const { status, body } = await invoke(name, { json: {}, token });
      expect({ name, status }).toEqual({ name, status: 404 });
      expect(body).toMatchObject({ code: 'function_not_found' });
    }
  });

  it('leaves the body to the function, as the platform does: any JSON value reaches it', async () => {
    const { status, body } = await invoke('hello', { json: [1, 2], token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ message: 'Hello, world!', payload: [1, 2] });
  });

  it('answers 500 when a function throws (its error in the log), and when it exports no handler', async () => {
    const failed = await invoke('boom', { json: {}, token });
    expect([failed.status, failed.body]).toEqual([500, 'Internal Server Error']);
    expect(logs.some((line) => line.startsWith('[boom]') && line.includes('the fixture exploded'))).toBe(true);
    const missing = await invoke('not-a-function', { json: {}, token });
    expect(missing.status).toBe(500);
    expect(missing.body).toMatchObject({ code: 'function_error', message: expect.stringMatching(/before it served/) });
    expect(logs.some((line) => line.includes('must call Deno.serve(handler) or export a default handler'))).toBe(true);
  });

  it('passes a Response returned by a function through as is', async () => {
    const { status, body, headers } = await invoke('teapot', { json: {}, token });
    expect(status).toBe(418);
    expect(body).toBe('short and stout');
    expect(headers.get('content-type')).toBe('text/plain');
  });

  it("keeps the app's access gate", async () => {
    const { status } = await api('POST', '/apps/invite-only/functions/hello', { json: {} });
    expect(status).toBe(403);
  });
});
