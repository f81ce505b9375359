/**
 * The header-less test hosts of support/hosts: what each answers for pages, files, unknown and
 * crafted paths, over real HTTP with the request target sent exactly as given (fetch would normalise
 * `//x` and `..`), and that no response carries a header of ours.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { startNotFoundOnlyHost } from '@/support/hosts/not-found-only';
import { startSpaOnlyHost } from '@/support/hosts/spa-only';
import type { RunningHost } from '@/support/hosts/types';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function request(host: RunningHost, target: string, method = 'GET'): Promise<RawResponse> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const sent = http.request({ host: '127.0.0.1', port: Number(port), path: target, method }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

let parent: string;
let root: string;
const hosts: Record<'spa' | 'pages' | 's3', RunningHost> = {} as Record<'spa' | 'pages' | 's3', RunningHost>;

beforeAll(async () => {
  parent = mkdtempSync(path.join(os.tmpdir(), 'header-less-'));
  root = path.join(parent, 'out');
  const files: Record<string, string> = {
    'index.html': 'home page',
    'ComingSoon.html': 'coming soon page',
    'ComingSoon/__next.txt': 'segment',
    '404.html': 'not found page',
    _headers: '/*\n  X-Test: yes\n',
    'robots.txt': 'User-agent: *',
    '_next/static/chunks/app.js': 'console.log(1)',
    'docs/index.html': 'docs folder page',
  };
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), body);
  }
  writeFileSync(path.join(parent, 'secret.txt'), 'secret outside the root');
  hosts.spa = await startSpaOnlyHost({ outDir: root });
  hosts.pages = await startNotFoundOnlyHost({ outDir: root });
  hosts.s3 = await startNotFoundOnlyHost({ outDir: root, port: 0, variant: 's3' });
});

afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host.stop()));
  rmSync(parent, { recursive: true, force: true });
});

const OURS = [
  'content-security-policy',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
  'x-content-type-options',
  'cross-origin-opener-policy',
  'cache-control',
  'access-control-allow-origin',
  'x-test',
];

// [path as sent, SPA-only (Base44), GitHub Pages, S3]: status and the body it serves
const TABLE: Array<[string, string, string, string]> = [
  ['/', '200 home page', '200 home page', '200 home page'],
  ['/index.html', '200 home page', '200 home page', '200 home page'],
  ['/ComingSoon', '200 home page', '200 coming soon page', '404 not found page'],
  ['/ComingSoon/', '200 home page', '404 not found page', '404 not found page'],
  ['/ComingSoon.html', '200 coming soon page', '200 coming soon page', '200 coming soon page'],
  ['/does-not-exist', '200 home page', '404 not found page', '404 not found page'],
  ['/some/deep/path', '200 home page', '404 not found page', '404 not found page'],
  ['/robots.txt', '200 User-agent: *', '200 User-agent: *', '200 User-agent: *'],
  ['/_next/static/chunks/app.js', '200 console.log(1)', '200 console.log(1)', '200 console.log(1)'],
  ['/_next/static/chunks/gone.js', '200 home page', '404 not found page', '404 not found page'],
  ['/docs/', '200 docs folder page', '200 docs folder page', '200 docs folder page'],
  ['//ComingSoon.html', '200 coming soon page', '200 coming soon page', '200 coming soon page'],
  ['//evil.example/x', '200 home page', '404 not found page', '404 not found page'],
  ['/%2F%2Fevil.example', '200 home page', '404 not found page', '404 not found page'],
  ['/../secret.txt', '200 home page', '404 not found page', '404 not found page'],
  ['/%2e%2e/secret.txt', '200 home page', '404 not found page', '404 not found page'],
  ['/..%2fsecret.txt', '200 home page', '404 not found page', '404 not found page'],
  ['/..%5csecret.txt', '200 home page', '404 not found page', '404 not found page'],
  ['/robots.txt%00', '200 home page', '404 not found page', '404 not found page'],
  ['/%E0%A4%A', '200 home page', '404 not found page', '404 not found page'],
  [`/${'a'.repeat(4000)}`, '200 home page', '404 not found page', '404 not found page'],
];

describe.each([
  ['spa', 1],
  ['pages', 2],
  ['s3', 3],
] as const)('the %s host', (name, column) => {
  it.each(TABLE.map((row) => [row[0].length > 40 ? `${row[0].slice(0, 12)}…` : row[0], row[0], row[column]]))(
    '%s',
    async (_label, target, expected) => {
      const response = await request(hosts[name], target);
      expect(`${response.status} ${response.text}`).toBe(expected);
      // GitHub Pages' own two headers (support/hosts/not-found-only.ts); nothing of ours anywhere.
      const own = name === 'pages' ? ['access-control-allow-origin', 'cache-control'] : [];
      for (const header of OURS.filter((candidate) => !own.includes(candidate))) {
        expect(response.headers[header]).toBeUndefined();
      }
      if (name === 'pages') {
        expect([response.headers['access-control-allow-origin'], response.headers['cache-control']]).toEqual([
          '*',
          'max-age=600',
        ]);
      }
    },
  );

  it('serves `_headers` as a file, since it knows nothing of it', async () => {
    const response = await request(hosts[name], '/_headers');
    expect(response.status).toBe(200);
    expect(response.headers['x-test']).toBeUndefined();
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await request(hosts[name], '/', 'HEAD');
    expect([head.status, head.text, head.headers['content-type']]).toEqual([200, '', 'text/html; charset=utf-8']);
    expect((await request(hosts[name], '/', 'POST')).status).toBe(405);
  });
});

describe('folder redirects', () => {
  it.each([
    ['pages', 301],
    ['s3', 302],
  ] as const)('the %s host sends /docs to /docs/ with its query', async (name, status) => {
    const response = await request(hosts[name], '/docs?x=1');
    expect([response.status, response.headers.location]).toEqual([status, '/docs/?x=1']);
  });

  it('never answers with a Location that names another host', async () => {
    const response = await request(hosts.pages, '//docs?x=1');
    expect(response.headers.location).toBe('/docs/?x=1');
  });
});
