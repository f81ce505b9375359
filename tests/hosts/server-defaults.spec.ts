/**
 * What the servers people run do with the export under their own defaults, as docs/DEPLOY.md says,
 * shown on the real export. Each finding is why a generated configuration exists, and
 * tests/hosts/servers.spec.ts shows that configuration doing better:
 * - Debian's Apache and `python3 -m http.server` answer `/ComingSoon` (a folder of Next.js payloads
 *   beside ComingSoon.html) with a redirect to `/ComingSoon/` and a listing of that folder, the login
 *   token still in the address (a listing runs no script to remove it);
 * - Caddy's plain `file_server` answers `/ComingSoon` and unknown paths with an empty 404;
 * - serve redirects `/ComingSoon.html` and `/index.html` and drops the query (the login token is lost);
 * - superstatic (Firebase Hosting's engine) answers `/ComingSoon` 404, and with `cleanUrls` sends
 *   `/index.html?query` to itself without end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startApacheHost } from '../../support/hosts/apache';
import { startCaddyHost } from '../../support/hosts/caddy';
import { startServeHost, startSuperstaticHost } from '../../support/hosts/node-servers';
import { processHost } from '../../support/hosts/process-host';
import type { RunningHost } from '../../support/hosts/types';
import { freePort } from '../../support/processes';
import { expect, test } from '../e2e/fixtures';
import { exportFileOf, followRaw, rawGet } from './raw-request';

const OUT = path.resolve(__dirname, '../../out');
const TOKEN_QUERY = '?access_token=t0ken';

async function startPythonServer(): Promise<RunningHost> {
  const port = await freePort();
  const scratch = mkdtempSync(path.join(tmpdir(), 'python-http-'));
  const child = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', OUT], {
    detached: true,
    stdio: 'ignore',
  });
  return processHost({ name: 'python3 -m http.server', child, port, scratch, timeoutMs: 15_000, describe: () => '' });
}

const hosts: Record<string, RunningHost> = {};

test.beforeAll(async () => {
  const started = await Promise.all([
    startApacheHost({ outDir: OUT, setup: 'defaults' }),
    startPythonServer(),
    startCaddyHost({ outDir: OUT, setup: 'defaults' }),
    startServeHost({ outDir: OUT, setup: 'defaults' }),
    startSuperstaticHost({ outDir: OUT, setup: 'defaults' }),
    startSuperstaticHost({ outDir: OUT, setup: 'clean-urls' }),
  ]);
  for (const [name, host] of ['apache', 'python', 'caddy', 'serve', 'superstatic', 'cleanUrls'].map(
    (name, index) => [name, started[index]] as const,
  )) {
    hosts[name] = host as RunningHost;
  }
});

test.afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host.stop()));
});

for (const [name, listing] of [
  ['apache', /<title>Index of \/ComingSoon<\/title>/],
  ['python', /<title>Directory listing for \/ComingSoon\/\?access_token=t0ken<\/title>/],
] as const) {
  test(`${name} with its defaults: /ComingSoon is a listing of Next's payloads, the token left in the address`, async () => {
    const { answer, address } = await followRaw(hosts[name]?.url ?? '', `/ComingSoon${TOKEN_QUERY}`);
    expect(new URL(address).pathname + new URL(address).search).toBe(`/ComingSoon/${TOKEN_QUERY}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(listing);
    expect(answer.body).toContain('__next._full.txt');
    expect(answer.body).not.toContain('<script');
  });
}

test("Debian's Apache with its defaults: an unknown path gets Apache's page, not the site's 404 screen", async () => {
  const answer = await rawGet(hosts.apache?.url ?? '', '/Preise');
  expect([answer.status, answer.body]).toEqual([404, expect.stringContaining('<title>404 Not Found</title>')]);
});

test("Caddy's plain file_server: /ComingSoon and unknown paths are an empty 404", async () => {
  for (const target of ['/ComingSoon', '/Preise']) {
    const answer = await rawGet(hosts.caddy?.url ?? '', target);
    expect([target, answer.status, exportFileOf(answer.body)]).toEqual([target, 404, '(empty)']);
  }
});

test('serve with its defaults: the .html addresses redirect without the query, the token lost', async () => {
  for (const [target, location] of [
    ['/ComingSoon.html', '/ComingSoon'],
    ['/index.html', '/index'],
  ] as const) {
    const answer = await rawGet(hosts.serve?.url ?? '', `${target}${TOKEN_QUERY}`);
    expect([target, answer.status, answer.headers.location]).toEqual([target, 301, location]);
  }
});

test('superstatic with its defaults: /ComingSoon is a 404', async () => {
  const answer = await rawGet(hosts.superstatic?.url ?? '', '/ComingSoon');
  expect([answer.status, exportFileOf(answer.body)]).toEqual([404, '404.html']);
});

test('superstatic with cleanUrls: /index.html?query redirects to itself without end', async () => {
  const first = await rawGet(hosts.cleanUrls?.url ?? '', `/index.html${TOKEN_QUERY}`);
  expect([first.status, first.headers.location]).toEqual([301, TOKEN_QUERY]);
  const { answer, hops, address } = await followRaw(hosts.cleanUrls?.url ?? '', `/index.html${TOKEN_QUERY}`, 5);
  expect([answer.status, hops, new URL(address).pathname]).toEqual([301, 5, '/index.html']);
});
