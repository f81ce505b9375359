/**
 * docs/DEPLOY.md's host table, its Netlify column. No Netlify runs here (`netlify dev` overrides every
 * Cache-Control, so it is no oracle), so its header cells rest on Netlify's own `_headers` parser
 * (`@netlify/headers-parser`): a small export is served with exactly the headers that parser gives
 * each path, merged as Netlify merges them, and `check:host` must find what the column says. The
 * cells that depend on Netlify's path handling (unknown paths, redirects) say they are not run here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';

import { checkHost, type HostCheckId } from '@/deploy/host-check/checks';
import { answerRequest } from '@/deploy/static-host/html-handling';
import { requestUrlOf } from '@/deploy/static-host/request-url';
import { PROTECTION_ROWS } from '@/support/hosts/host-table';
import { writeSmallExport } from '@/tests/support/small-export';

let dir: string;
let server: Server;
let site: string;

/** The headers Netlify sends for a path: every rule whose pattern matches, later values winning. */
function netlifyHeaders(rules: Header[], urlPath: string): Record<string, string> {
  return Object.assign({}, ...rules.filter((rule) => rule.forRegExp.test(urlPath)).map((rule) => rule.values));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'netlify-column-'));
  writeSmallExport(dir);
  const parsed = await parseAllHeaders({
    headersFiles: [path.join(dir, '_headers')],
    configHeaders: [],
    minimal: false,
  });
  expect(parsed.errors).toEqual([]);
  const rules = parsed.headers as Header[];
  server = createServer((request, response) => {
    const url = requestUrlOf(request.url);
    void answerRequest(dir, url).then(async (answer) => {
      const headers = netlifyHeaders(rules, url.pathname);
      if (!answer) return void response.writeHead(404, headers).end();
      if ('redirect' in answer)
        return void response.writeHead(answer.status, { ...headers, Location: answer.redirect }).end();
      const type = answer.file.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript';
      response.writeHead(answer.status, { ...headers, 'Content-Type': type }).end(await readFile(answer.file));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it('check:host finds every header cell of the Netlify column under the headers Netlify would send', async () => {
  const report = await checkHost(`${site}/`);
  const checked = (Object.keys(PROTECTION_ROWS) as HostCheckId[]).filter(
    (id) => PROTECTION_ROWS[id].netlify.kept !== null,
  );
  expect(checked).toEqual(
    expect.arrayContaining([
      'csp',
      'frame-ancestors',
      'permissions-policy',
      'nosniff',
      'coop',
      'cors',
      'static-caching',
    ]),
  );
  for (const id of checked) {
    expect([id, report.results.find((result) => result.id === id)?.kept]).toEqual([
      id,
      PROTECTION_ROWS[id].netlify.kept,
    ]);
  }
});
