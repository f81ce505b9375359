/**
 * `npm run check:host` where its verdicts must stay true: the small export on our static host and on
 * real nginx with the generated snippet keeps every protection; a site that loses some is named and
 * exits 1; `--json` prints the documented shape; the sites it cannot check at all (unreachable, not
 * HTML, a redirect loop at the address given) get one line and exit code 2. The host matrix
 * (tests/hosts/host-table.spec.ts) runs it against every real host with a real build.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

import { toNginxSnippet } from '@/deploy/headers/formats';
import { buildHeaderRules } from '@/deploy/headers/policy';
import { HOST_CHECK_IDS, type HostCheckId } from '@/deploy/host-check/catalog';
import { checkHost } from '@/deploy/host-check/checks';
import { HostCheckError } from '@/deploy/host-check/http';
import type { JsonReport } from '@/deploy/host-check/report';
import { startNginxHost } from '@/support/hosts/nginx';
import { findServer } from '@/support/hosts/programs';
import { freePort } from '@/support/processes';
import { SMALL_EXPORT_POLICY, smallPage } from '@/tests/support/small-export';

import { closeSites, listen, runCli, serve, smallExport } from './sites';

afterAll(closeSites);

const TIMEOUT = 60_000;

describe('a site that keeps every protection', () => {
  it(
    'is reported kept row by row and passes, on our static host',
    async () => {
      const url = await serve(smallExport());
      const report = await checkHost(`${url}/`);
      expect(report.missing).toEqual([]);
      expect(report.results.filter((result) => !result.kept)).toEqual([]);
      const found = (id: string) => report.results.find((result) => result.id === id)?.found;
      expect(found('csp')).toBe('from the header and <meta>');
      expect(found('frame-ancestors')).toBe("'self' https://editor.example");
      expect(found('pages')).toBe('/, /ComingSoon: the page');
      expect(found('unknown-path')).toBe("404: the site's 404 page");

      const cli = await runCli(`${url}/`);
      expect(cli.status).toBe(0);
      expect(cli.stdout).toMatch(
        /^Redirects keep the query +kept +308 \/index\?access_token=check-host-token -> \/\?access_token=check-host-token$/m,
      );
      expect(cli.stdout).toContain('Every protection docs/DEPLOY.md promises is in place.');
    },
    TIMEOUT,
  );

  const nginx = findServer('nginx');
  (nginx ? it : it.skip)(
    'is reported kept on real nginx with the generated snippet',
    async () => {
      const dir = smallExport();
      // nginx started as root serves as `nobody`, who cannot enter a folder mkdtemp made (0700).
      chmodSync(dir, 0o755);
      const snippet = path.join(dir, '..', `${path.basename(dir)}-nginx.conf`);
      writeFileSync(snippet, toNginxSnippet(buildHeaderRules(SMALL_EXPORT_POLICY)));
      const host = await startNginxHost({ outDir: dir, snippet });
      try {
        const report = await checkHost(`${host.url}/`);
        expect(report.results.filter((result) => !result.kept)).toEqual([]);
      } finally {
        await host.stop();
      }
    },
    TIMEOUT,
  );
});

describe('a site that loses protections', () => {
  it(
    'names them and exits 1: headers gone, and a redirect that drops the query',
    async () => {
      const home = smallPage('Home', SMALL_EXPORT_POLICY);
      const notFound = smallPage('404', SMALL_EXPORT_POLICY, { notFoundPage: true });
      const url = await listen(
        createServer((request, response) => {
          const pathname = new URL(request.url ?? '/', 'http://site').pathname;
          if (pathname === '/index.html') response.writeHead(301, { Location: '/' }).end();
          else if (pathname === '/' || pathname === '/ComingSoon') {
            response.writeHead(200, { 'Content-Type': 'text/html' }).end(home);
          } else response.writeHead(404, { 'Content-Type': 'text/html' }).end(notFound);
        }),
      );
      const report = await checkHost(url);
      expect(report.missing).toEqual(['frame-ancestors', 'permissions-policy', 'nosniff', 'coop', 'redirect-query']);
      const cli = await runCli(url);
      expect(cli.status).toBe(1);
      expect(cli.stdout).toMatch(
        /^Redirects keep the query +LOST +301 \/index\.html\?access_token=check-host-token -> \/$/m,
      );
      expect(cli.stdout.trim().split('\n').at(-1)).toBe(
        'Missing protections (docs/DEPLOY.md says which hosts keep them): frame-ancestors, permissions-policy, nosniff, coop, redirect-query',
      );
    },
    TIMEOUT,
  );
});

describe('--json', () => {
  it(
    'prints one document of the documented shape, with the same exit code',
    async () => {
      const url = await serve(smallExport());
      const cli = await runCli('--json', `${url}/`);
      expect([cli.status, cli.stderr]).toEqual([0, '']);
      const report = JSON.parse(cli.stdout) as JsonReport;
      expect(Object.keys(report)).toEqual(['version', 'requested', 'url', 'passed', 'missing', 'checks', 'notes']);
      expect(report).toMatchObject({ version: 1, requested: `${url}/`, url: `${url}/`, passed: true, missing: [] });
      const hostRows = report.checks.filter((check) => check.scope === 'host').map((check) => check.id);
      expect(hostRows).toEqual(HOST_CHECK_IDS satisfies HostCheckId[]);
      for (const check of report.checks) {
        expect(Object.keys(check)).toEqual(['id', 'label', 'protection', 'scope', 'verdict', 'found']);
        expect(check.verdict).toBe('kept');
      }
    },
    TIMEOUT,
  );

  it(
    'prints the error as JSON too when the site cannot be checked',
    async () => {
      const url = `http://127.0.0.1:${await freePort()}/`;
      const cli = await runCli(url, '--json');
      expect(cli.status).toBe(2);
      expect(JSON.parse(cli.stdout)).toEqual({ version: 1, error: `cannot reach ${url}: ECONNREFUSED` });
      expect(cli.stderr).toBe(`check:host: cannot reach ${url}: ECONNREFUSED\n`);
    },
    TIMEOUT,
  );
});

describe('a site that cannot be checked gets one line and exit code 2', () => {
  it(
    'when nothing answers',
    async () => {
      const url = `http://127.0.0.1:${await freePort()}/`;
      await expect(checkHost(url)).rejects.toThrow(new HostCheckError(`cannot reach ${url}: ECONNREFUSED`));
      const cli = await runCli(url);
      expect([cli.status, cli.stdout, cli.stderr]).toEqual([2, '', `check:host: cannot reach ${url}: ECONNREFUSED\n`]);
    },
    TIMEOUT,
  );

  it(
    'when the answer is not an HTML page',
    async () => {
      const url = await listen(
        createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')),
      );
      const cli = await runCli(`${url}/`);
      expect([cli.status, cli.stderr]).toEqual([
        2,
        `check:host: ${url}/ answered 200 application/json, not an HTML page\n`,
      ]);
    },
    TIMEOUT,
  );

  it(
    'when redirects at the address given go round in a loop',
    async () => {
      const url = await listen(
        createServer((request, response) => {
          response.writeHead(302, { Location: request.url === '/' ? '/a' : '/' }).end();
        }),
      );
      const cli = await runCli(`${url}/`);
      expect([cli.status, cli.stderr]).toEqual([2, `check:host: redirect loop: ${url}/ -> ${url}/a -> ${url}/\n`]);
    },
    TIMEOUT,
  );

  it.each([
    ['ftp://example.com/', 'check:host: not an http(s) URL: ftp://example.com/\n'],
    [
      '--verbose',
      expect.stringMatching(/^check:host: unknown option --verbose \(npm run check:host -- \[--json\] <url/),
    ],
  ])(
    'when the argument is %s',
    async (argument, stderr) => {
      expect(await runCli(argument)).toMatchObject({ status: 2, stderr });
    },
    TIMEOUT,
  );
});
