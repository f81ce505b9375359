import { request as httpRequest } from 'node:http';
import { io, type Socket } from 'socket.io-client';

import { SEEDED_ACCOUNTS } from '@/tests/support/emulator';

import { suiteEmulator } from '../api';

/**
 * The router collapses `//` and decodes `%xx` before matching, so the gates (local-only helpers,
 * CORS for the API) must decide on that same path: every other spelling of `/api/_emulator/...` or
 * `/api/...` meets the same gate, and a path that cannot be read one way is a 400.
 * Requests go through node:http so the path reaches the emulator byte for byte.
 */

const suite = suiteEmulator();
const APP = 'coming-soon';
const SITE_ORIGIN = 'http://localhost:3000';
const FOREIGN_ORIGIN = 'http://attacker.example';
const ROOM = `entities:${APP}:Note`;

interface RawResult {
  status: number;
  body: string;
}

function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: suite.emulator.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const codeOf = (result: RawResult): unknown => (JSON.parse(result.body) as { code?: unknown }).code;

/** Spellings of `/api/_emulator/{rest}` that the router reads as that path. */
const toolSpellings = (rest: string): string[] => [
  `/api//_emulator/${rest}`,
  `//api/_emulator/${rest}`,
  `/api/_emulator//${rest}`,
  `/api/%5Femulator/${rest}`,
  `/api/%5femulator/${rest}`,
  `/%61pi/_emulator/${rest}`,
  `/api/x/../_emulator/${rest}`,
  `/api/%2e/_emulator/${rest}`,
];

describe('the local-only helpers under other spellings', () => {
  it('refuses the outbox (with its reset tokens) to a page of the site, however the path is spelled', async () => {
    await raw(
      'POST',
      `/api/apps/${APP}/auth/reset-password-request`,
      { 'Content-Type': 'application/json' },
      JSON.stringify({ email: SEEDED_ACCOUNTS.admin.email }),
    );
    const headers = { Origin: SITE_ORIGIN, 'Sec-Fetch-Site': 'same-site' };
    expect((await raw('GET', '/api/_emulator/outbox', headers)).status).toBe(403);
    for (const path of toolSpellings('outbox')) {
      const result = await raw('GET', path, headers);
      expect({ path, status: result.status, code: codeOf(result) }).toEqual({ path, status: 403, code: 'local_only' });
      expect(result.body).not.toContain('reset token');
    }
    // A local non-browser caller still reads it under any spelling: one path, one gate.
    expect((await raw('GET', '/api//_emulator/outbox')).status).toBe(200);
  });

  it('refuses forged room events and disconnects from a page, and the socket stays in its room', async () => {
    const socket: Socket = io(suite.emulator.url, {
      path: '/ws-user-apps/socket.io/',
      transports: ['websocket'],
      query: { app_id: APP },
      reconnection: false,
      forceNew: true,
    });
    try {
      await new Promise((resolve, reject) => {
        socket.once('connect', () => resolve(undefined));
        socket.once('connect_error', reject);
      });
      const forged: unknown[] = [];
      socket.on('update_model', (message: unknown) => forged.push(message));
      socket.emit('join', ROOM);
      const probe = () =>
        raw(
          'POST',
          `/api/_emulator/rooms/${encodeURIComponent(ROOM)}/emit`,
          { 'Content-Type': 'application/json' },
          '{"event":"probe","payload":null}',
        );
      for (let attempt = 0; attempt < 200; attempt += 1) {
        if ((JSON.parse((await probe()).body) as { delivered: number }).delivered === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const room = encodeURIComponent(ROOM);
      const page = { Origin: SITE_ORIGIN, 'Sec-Fetch-Site': 'same-site', 'Content-Type': 'application/json' };
      const event = JSON.stringify({ event: 'update_model', payload: { room: ROOM, data: '{"type":"delete"}' } });
      for (const path of toolSpellings(`rooms/${room}/emit`)) {
        const result = await raw('POST', path, page, event);
        expect({ path, status: result.status }).toEqual({ path, status: 403 });
      }
      // A cross-site form (no preflight) aiming at the disconnect helper.
      const form = {
        Origin: FOREIGN_ORIGIN,
        'Sec-Fetch-Site': 'cross-site',
        'Content-Type': 'application/x-www-form-urlencoded',
      };
      for (const path of toolSpellings(`rooms/${room}/disconnect`)) {
        const result = await raw('POST', path, form, 'x=1');
        expect({ path, status: result.status }).toEqual({ path, status: 403 });
      }
      expect(JSON.parse((await probe()).body)).toMatchObject({ delivered: 1 });
      expect(socket.connected).toBe(true);
      expect(forged).toEqual([]);
    } finally {
      socket.disconnect();
    }
  });
});

describe('the CORS gate under other spellings', () => {
  const foreign = { Origin: FOREIGN_ORIGIN, 'Sec-Fetch-Site': 'cross-site' };
  const apiSpellings = (rest: string): string[] => [
    `/%61pi/${rest}`,
    `/%61%70%69/${rest}`,
    `//api/${rest}`,
    `/api//${rest}`,
    `/x/../api/${rest}`,
  ];

  it('refuses an anonymous SendEmail from a foreign origin, and nothing is sent', async () => {
    const before = suite.emulator.outbox().length;
    for (const path of apiSpellings(`apps/${APP}/integration-endpoints/Core/SendEmail`)) {
      const result = await raw(
        'POST',
        path,
        { ...foreign, 'Content-Type': 'application/json' },
        JSON.stringify({ to: 'victim@example.com', subject: 'hi', body: 'phish' }),
      );
      expect({ path, status: result.status, code: codeOf(result) }).toEqual({
        path,
        status: 403,
        code: 'origin_not_allowed',
      });
    }
    expect(suite.emulator.outbox()).toHaveLength(before);
  });

  it('refuses an anonymous upload and a function call from a foreign origin', async () => {
    const boundary = 'xyz';
    const multipart = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'hello',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    for (const path of apiSpellings(`apps/${APP}/integration-endpoints/Core/UploadFile`)) {
      const result = await raw(
        'POST',
        path,
        { ...foreign, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        multipart,
      );
      expect({ path, status: result.status }).toEqual({ path, status: 403 });
    }
    for (const path of apiSpellings(`apps/${APP}/functions/hello`)) {
      const result = await raw('POST', path, { ...foreign, 'Content-Type': 'text/plain' }, '{}');
      expect({ path, status: result.status }).toEqual({ path, status: 403 });
    }
  });

  it('still answers the site origin under the plain spelling', async () => {
    const result = await raw(
      'POST',
      `/api/apps/${APP}/functions/hello`,
      {
        Origin: SITE_ORIGIN,
        'Content-Type': 'application/json',
      },
      '{}',
    );
    expect(result.status).toBe(200);
  });
});

describe('paths that cannot be read one way', () => {
  it('answers 400 for broken percent-encoding and control characters, before any route', async () => {
    for (const path of [
      '/api/%E0%A4%A/x',
      '/api/apps/%00/entities/Note',
      '/api/apps/a%0Ab/entities/Note',
      '/api/%ZZ',
    ]) {
      const result = await raw('GET', path);
      expect({ path, status: result.status, code: codeOf(result) }).toEqual({
        path,
        status: 400,
        code: 'malformed_path',
      });
    }
  });
});

describe('socket.io under other spellings', () => {
  it('serves the handshake only at its exact path, and a foreign origin nowhere', async () => {
    const query = `?EIO=4&transport=polling&app_id=${APP}`;
    expect((await raw('GET', `/ws-user-apps/socket.io/${query}`)).status).toBe(200);
    expect((await raw('GET', `/ws-user-apps/socket.io/${query}`, { Origin: FOREIGN_ORIGIN })).status).toBe(403);
    for (const path of [
      '//ws-user-apps/socket.io/',
      '/ws-user-apps//socket.io/',
      '/ws-user-apps/%73ocket.io/',
      '/WS-USER-APPS/socket.io/',
    ]) {
      const result = await raw('GET', `${path}${query}`, { Origin: FOREIGN_ORIGIN });
      expect({ path, status: result.status }).toEqual({ path, status: 404 });
      expect(result.body).not.toMatch(/"sid"/);
    }
  });
});
