import { request as httpRequest } from 'node:http';

import { isLoopback } from '@/emulator/http/local-access';
import { SEEDED_ACCOUNTS, SEEDED_PASSWORD, serviceTokenFor } from '@/tests/support/emulator';

import { suiteEmulator } from '../api';

/**
 * DNS rebinding, login CSRF and the local-only helpers. Node's fetch will not forge a Host header,
 * so these requests go through node:http, which sends exactly the headers given.
 */

const suite = suiteEmulator();
const APP = 'coming-soon';
const SITE = 'http://localhost:3000/';

interface RawResult {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: suite.emulator.port, method, path, headers, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const hostOf = (name: string) => `${name}:${suite.emulator.port}`;

describe('the Host header', () => {
  it("answers on 127.0.0.1, localhost and [::1] with the emulator's port", async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]', 'LOCALHOST']) {
      const result = await raw('GET', '/api/_emulator/health', { Host: hostOf(name) });
      expect({ name, status: result.status }).toEqual({ name, status: 200 });
    }
  });

  it("refuses a rebinding host name with 421 before reading the outbox or an app's data", async () => {
    await fetch(`${suite.emulator.url}/api/apps/${APP}/auth/reset-password-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: SEEDED_ACCOUNTS.admin.email }),
    });
    for (const path of ['/api/_emulator/outbox', `/api/apps/${APP}/entities/User`, '/login']) {
      const result = await raw('GET', path, {
        Host: hostOf('attacker.example.com'),
        Authorization: `Bearer ${serviceTokenFor(APP)}`,
      });
      expect({ path, status: result.status }).toEqual({ path, status: 421 });
      expect(JSON.parse(result.body)).toMatchObject({ code: 'host_not_allowed' });
      expect(result.body).not.toContain('reset token');
    }
  });

  it('refuses the right name on another port, and a request without Host', async () => {
    expect((await raw('GET', '/api/_emulator/health', { Host: '127.0.0.1:1' })).status).toBe(421);
    expect((await raw('GET', '/api/_emulator/health', { Host: '127.0.0.1' })).status).toBe(421);
    expect((await raw('GET', '/api/_emulator/health', {})).status).toBe(400);
  });

  it('refuses a socket.io handshake under a foreign host name', async () => {
    const path = `/ws-user-apps/socket.io/?EIO=4&transport=polling&app_id=${APP}`;
    expect((await raw('GET', path, { Host: hostOf('127.0.0.1') })).status).toBe(200);
    const refused = await raw('GET', path, { Host: hostOf('rebind.example.com') });
    expect(refused.status).toBe(403);
    expect(refused.body).not.toMatch(/"sid"/);
  });
});

describe('the login form', () => {
  const form = (origin?: string, extra: Record<string, string> = {}) =>
    raw(
      'POST',
      '/login',
      {
        Host: hostOf('127.0.0.1'),
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(origin === undefined ? {} : { Origin: origin }),
        ...extra,
      },
      new URLSearchParams({
        app_id: APP,
        from_url: SITE,
        email: SEEDED_ACCOUNTS.user.email,
        password: SEEDED_PASSWORD,
      }).toString(),
    );

  it("logs in when posted from the emulator's own page (or by a non-browser client)", async () => {
    for (const origin of [
      `http://127.0.0.1:${suite.emulator.port}`,
      `http://localhost:${suite.emulator.port}`,
      undefined,
    ]) {
      const result = await form(origin);
      expect({ origin, status: result.status }).toEqual({ origin, status: 303 });
      expect(String(result.headers.location)).toMatch(/^http:\/\/localhost:3000\/\?access_token=/);
    }
  });

  it('refuses a cross-site post (login CSRF) without logging in or redirecting', async () => {
    const attempts: [string | undefined, Record<string, string>][] = [
      ['https://evil.example.com', {}],
      ['null', {}],
      ['http://localhost:3000', {}],
      [undefined, { 'Sec-Fetch-Site': 'cross-site' }],
    ];
    for (const [origin, extra] of attempts) {
      const result = await form(origin, extra);
      expect({ origin, extra, status: result.status }).toEqual({ origin, extra, status: 403 });
      expect(result.headers.location).toBeUndefined();
      expect(result.body).toContain('role="alert"');
    }
  });
});

describe('the /api/_emulator helpers', () => {
  it('refuse a browser request from a site origin, even one the apps allow for CORS', async () => {
    const browserHeaders: Record<string, string>[] = [
      { Origin: 'http://localhost:3000' },
      { Origin: 'https://evil.example.com' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of browserHeaders) {
      const result = await raw('GET', '/api/_emulator/outbox', { Host: hostOf('127.0.0.1'), ...headers });
      expect({ headers, status: result.status }).toEqual({ headers, status: 403 });
      expect(JSON.parse(result.body)).toMatchObject({ code: 'local_only' });
    }
    const preflight = await raw('OPTIONS', '/api/_emulator/outbox', {
      Host: hostOf('127.0.0.1'),
      Origin: 'http://localhost:3000',
      'Access-Control-Request-Method': 'DELETE',
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answer a local tool without an Origin', async () => {
    const result = await raw('GET', '/api/_emulator/outbox', { Host: hostOf('localhost') });
    expect(result.status).toBe(200);
    expect(Array.isArray(JSON.parse(result.body))).toBe(true);
  });
});

describe('loopback callers', () => {
  it('counts only 127.0.0.0/8 and ::1 (also IPv4-mapped) as this machine', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect({ address, local: isLoopback(address) }).toEqual({ address, local: true });
    for (const address of ['10.0.0.2', '::ffff:192.168.1.4', 'fe80::1', '1127.0.0.1', undefined]) {
      expect({ address, local: isLoopback(address) }).toEqual({ address, local: false });
    }
  });
});
