/**
 * `npm run check:host` against sites built for the purpose: one that keeps every protection (our
 * model serving a small export with the generated `_headers`), one whose redirects drop the query,
 * and the sites it cannot check at all (unreachable, not HTML, a redirect loop), which get one line
 * and exit code 2. The host matrix (tests/hosts/host-table.spec.ts) runs it against every real host.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { checkHost } from '@/deploy/host-check/checks';
import { HostCheckError } from '@/deploy/host-check/http';
import { createStaticServer } from '@/deploy/static-host/server';
import { freePort } from '@/support/processes';
import { SMALL_EXPORT_POLICY, smallPage, writeSmallExport } from '@/tests/support/small-export';

const ROOT = path.resolve(__dirname, '../../..');
const servers: Server[] = [];
let exportDir: string;

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(() => {
  exportDir = mkdtempSync(path.join(os.tmpdir(), 'host-check-'));
  writeSmallExport(exportDir);
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(exportDir, { recursive: true, force: true });
});

/**
 * `npm run check:host -- <url>` as a user runs it; asynchronously, since the sites it checks answer
 * from this very process.
 */
function runCli(url: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['tools/site/check-host.ts', url], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('a site that keeps every protection', () => {
  it('is reported kept row by row and passes', async () => {
    const url = await listen(createStaticServer({ root: exportDir }));
    const report = await checkHost(`${url}/`);
    expect(report.missing).toEqual([]);
    expect(report.results.every((result) => result.kept)).toBe(true);
    expect(report.results.find((result) => result.id === 'csp')?.found).toBe('from the header and <meta>');
    expect(report.results.find((result) => result.id === 'frame-ancestors')?.found).toBe(
      "'self' https://editor.example",
    );

    const cli = await runCli(`${url}/`);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toMatch(
      /^Redirects keep the query +kept +308 \/index\.html\?check-host=1 -> \/\?check-host=1$/m,
    );
    expect(cli.stdout).toContain('Every protection README "Deploy" promises is in place.');
  }, 60_000);
});

describe('a site that loses protections', () => {
  it('names them and exits 1: headers gone, and a redirect that drops the query', async () => {
    const home = smallPage('Home', SMALL_EXPORT_POLICY);
    const url = await listen(
      createServer((request, response) => {
        const pathname = new URL(request.url ?? '/', 'http://site').pathname;
        if (pathname === '/index.html') response.writeHead(301, { Location: '/' }).end();
        else if (pathname === '/') response.writeHead(200, { 'Content-Type': 'text/html' }).end(home);
        else response.writeHead(404, { 'Content-Type': 'text/html' }).end('not found');
      }),
    );
    const report = await checkHost(url);
    expect(report.missing).toEqual(['frame-ancestors', 'permissions-policy', 'nosniff', 'coop', 'redirect-query']);
    const cli = await runCli(url);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/^Redirects keep the query +LOST +301 \/index\.html\?check-host=1 -> \/$/m);
    expect(cli.stdout.trim().split('\n').at(-1)).toBe(
      'Missing protections (README "Deploy" says which hosts keep them): frame-ancestors, permissions-policy, nosniff, coop, redirect-query',
    );
  }, 60_000);
});

describe('a site that cannot be checked gets one line and exit code 2', () => {
  it('when nothing answers', async () => {
    const url = `http://127.0.0.1:${await freePort()}/`;
    await expect(checkHost(url)).rejects.toThrow(new HostCheckError(`cannot reach ${url}: ECONNREFUSED`));
    const cli = await runCli(url);
    expect([cli.status, cli.stdout, cli.stderr]).toEqual([2, '', `check:host: cannot reach ${url}: ECONNREFUSED\n`]);
  }, 60_000);

  it('when the answer is not an HTML page', async () => {
    const url = await listen(
      createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')),
    );
    const cli = await runCli(`${url}/`);
    expect([cli.status, cli.stderr]).toEqual([
      2,
      `check:host: ${url}/ answered 200 application/json, not an HTML page\n`,
    ]);
  }, 60_000);

  it('when redirects go round in a loop', async () => {
    const url = await listen(
      createServer((request, response) => {
        response.writeHead(302, { Location: request.url === '/' ? '/a' : '/' }).end();
      }),
    );
    const cli = await runCli(`${url}/`);
    expect([cli.status, cli.stderr]).toEqual([2, `check:host: redirect loop: ${url}/ -> ${url}/a -> ${url}/\n`]);
  }, 60_000);

  it('when the argument is no http(s) URL', async () => {
    expect(await runCli('ftp://example.com/')).toMatchObject({
      status: 2,
      stderr: 'check:host: not an http(s) URL: ftp://example.com/\n',
    });
  }, 60_000);
});
