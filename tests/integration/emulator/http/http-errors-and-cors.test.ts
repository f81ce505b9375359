import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall, type Json } from '../api';

let emulator: RunningEmulator;
let api: ApiCall;
let token: string;
const APP = 'coming-soon';
const LIMIT = 2048;

beforeAll(async () => {
  emulator = await startTestEmulator({ bodyLimitBytes: LIMIT, siteOrigins: ['https://staging.example.org'] });
  api = apiClient(emulator);
  token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
});
afterAll(() => emulator.close());

describe('CORS', () => {
  it("reflects the app's site origins and the siteOrigins option, and nothing else", async () => {
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:3000', 'https://staging.example.org']) {
      const { status, headers } = await api('GET', entityPath(APP, 'Note'), { headers: { Origin: origin } });
      expect(status).toBe(200);
      expect(headers.get('access-control-allow-origin')).toBe(origin);
      expect(headers.get('vary')).toBe('Origin');
    }
  });

  it('reflects every loopback origin on any port, as a dev server of the app serves it', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:8080',
      'http://[::1]:4200',
      'https://localhost:8443',
    ]) {
      const { status, headers } = await api('GET', entityPath(APP, 'Note'), { headers: { Origin: origin } });
      expect({ origin, status, allowed: headers.get('access-control-allow-origin') }).toEqual({
        origin,
        status: 200,
        allowed: origin,
      });
    }
  });

  it('refuses names that only look local, and says which option admits an origin', async () => {
    for (const origin of ['http://localhost.evil.example:5173', 'http://127.0.0.1.evil.example', 'null']) {
      const { status, body } = await api('GET', entityPath(APP, 'Note'), { headers: { Origin: origin } });
      expect({ origin, status }).toEqual({ origin, status: 403 });
      expect(body).toMatchObject({ code: 'origin_not_allowed' });
    }
    const { body } = await api('GET', entityPath(APP, 'Note'), { headers: { Origin: 'https://app.example.net' } });
    expect((body as { message: string }).message).toBe(
      'Origin https://app.example.net is not allowed to call this emulator: start it with --site-origin https://app.example.net to allow it',
    );
  });

  it('refuses a request from a foreign origin with 403 and no CORS headers', async () => {
    const { status, body, headers } = await api('POST', entityPath(APP, 'Note'), {
      json: { text: 'csrf' },
      token,
      headers: { Origin: 'https://evil.example.com' },
    });
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: 'origin_not_allowed' });
    expect(headers.get('access-control-allow-origin')).toBeNull();
    expect((await api<Json[]>('GET', entityPath(APP, 'Note'))).body).toEqual([]);
  });

  it('answers a preflight with the methods and every header the SDKs send', async () => {
    const response = await fetch(`${emulator.url}/api${entityPath(APP, 'Note')}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization,x-app-id',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of [
      'authorization',
      'content-type',
      'x-app-id',
      'x-origin-url',
      'x-base44-anonymous-id',
      'base44-functions-version',
    ]) {
      expect(allowed).toContain(header);
    }
  });

  it('refuses a preflight from a foreign origin', async () => {
    const response = await fetch(`${emulator.url}/api${entityPath(APP, 'Note')}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example.com', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('bad requests get a JSON error and change nothing', () => {
  afterEach(async () => {
    expect((await api<Json[]>('GET', entityPath(APP, 'Note'))).body).toEqual([]);
  });

  it('answers 413 for a body over the configured limit, announced or streamed', async () => {
    const big = { text: 'x'.repeat(LIMIT) };
    const announced = await api('POST', entityPath(APP, 'Note'), { json: big, token });
    expect(announced.status).toBe(413);
    expect(announced.body).toMatchObject({ code: 'payload_too_large', extra_data: { limit_bytes: LIMIT } });

    const chunks = [
      new TextEncoder().encode('{"text":"'),
      new TextEncoder().encode('y'.repeat(LIMIT)),
      new TextEncoder().encode('"}'),
    ];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const streamed = await fetch(`${emulator.url}/api${entityPath(APP, 'Note')}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(streamed.status).toBe(413);
  });

  it('answers 413 for an oversize multipart upload', async () => {
    const form = new FormData();
    form.append('file', new File(['z'.repeat(LIMIT * 2)], 'big.txt', { type: 'text/plain' }));
    const { status } = await api('POST', `/apps/${APP}/integration-endpoints/Core/UploadFile`, { body: form, token });
    expect(status).toBe(413);
  });

  it('answers 404 JSON for unknown routes, inside and outside /api', async () => {
    const inside = await api('GET', '/apps/coming-soon/nothing-here');
    expect(inside.status).toBe(404);
    expect(inside.body).toMatchObject({
      code: 'route_not_found',
      message: expect.stringContaining('/api/apps/coming-soon/nothing-here'),
    });
    const outside = await fetch(`${emulator.url}/favicon.ico`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('answers 405 with the allowed methods for a known path and the wrong method', async () => {
    const { status, body } = await api('PATCH', entityPath(APP, 'Note'), { json: {}, token });
    expect(status).toBe(405);
    expect(body).toMatchObject({ code: 'method_not_allowed', extra_data: { allowed: ['DELETE', 'GET', 'POST'] } });
  });

  it('answers 400 for malformed percent-encoding in the path', async () => {
    const { status, body } = await api('GET', '/apps/coming-soon/entities/%E0%A4%A');
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'malformed_path' });
  });

  // Functions are not among them: a function gets the request as sent and reads its own body.
  it('answers 400 for malformed JSON on every JSON endpoint', async () => {
    const paths = [
      entityPath(APP, 'Note'),
      entityPath(APP, 'Note', '/bulk'),
      `/apps/${APP}/auth/login`,
      `/apps/${APP}/auth/register`,
      `/apps/${APP}/integration-endpoints/Core/SendEmail`,
      `/apps/${APP}/agents/conversations`,
    ];
    for (const path of paths) {
      const { status, body } = await api('POST', path, {
        body: '{"broken":',
        headers: { 'Content-Type': 'application/json' },
        token,
      });
      expect({ path, status }).toEqual({ path, status: 400 });
      expect(body).toMatchObject({ code: 'malformed_json' });
    }
  });

  it('answers 404 for an unknown app on every app route', async () => {
    for (const [method, path] of [
      ['GET', entityPath('ghost', 'Note')],
      ['POST', '/apps/ghost/auth/login'],
      ['POST', '/apps/ghost/functions/hello'],
      ['GET', '/apps/ghost/agents/conversations'],
      ['GET', '/app-logs/ghost'],
    ] as const) {
      const { status, body } = await api(method, path, { json: method === 'POST' ? {} : undefined });
      expect({ path, status }).toEqual({ path, status: 404 });
      expect(body).toMatchObject({ code: 'app_not_found' });
    }
  });
});

describe('latency', () => {
  it('delays every response by latencyMs', async () => {
    const slow = await startTestEmulator({ latencyMs: 120 });
    try {
      const started = Date.now();
      const response = await fetch(`${slow.url}/api/_emulator/health`);
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    } finally {
      await slow.close();
    }
  });
});
