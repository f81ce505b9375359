import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { redirectLocation } from '@/deploy/static-host/html-handling';
import { createStaticServer } from '@/deploy/static-host/server';

let root: string;
let server: Server;
let base: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'static-host-'));
  writeFileSync(path.join(root, 'index.html'), '<h1>home</h1>');
  writeFileSync(path.join(root, 'ComingSoon.html'), '<h1>coming soon</h1>');
  mkdirSync(path.join(root, 'ComingSoon'));
  writeFileSync(path.join(root, 'ComingSoon', '__next.txt'), 'segment');
  writeFileSync(path.join(root, '404.html'), '<h1>not found</h1>');
  writeFileSync(
    path.join(root, '_headers'),
    [
      '/*',
      '  X-Site-Wide: 1',
      '/_next/static/*',
      '  Cache-Control: public, max-age=31536000, immutable',
      '/',
      '  Cache-Control: no-cache',
      '/ComingSoon',
      '  Cache-Control: no-cache',
      '/ComingSoon/',
      '  Cache-Control: no-cache',
      '',
    ].join('\n'),
  );
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docs', 'index.html'), '<h1>docs</h1>');
  mkdirSync(path.join(root, '_next', 'static', 'chunks'), { recursive: true });
  writeFileSync(
    path.join(root, '_next', 'static', 'chunks', 'app-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(2000))});`,
  );
  writeFileSync(path.join(os.tmpdir(), 'secret-outside-root.txt'), 'secret');
  server = createStaticServer({ root });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** GET with the request target sent exactly as given (fetch would normalise `//x` and `..`). */
function getRaw(target: string): Promise<{ status: number; text: string; location?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: Number(new URL(base).port), path: target }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text, location: response.headers.location }),
      );
    });
    request.on('error', reject);
  });
}

/** A request with exactly these headers (fetch would add its own Accept-Encoding); body not decoded. */
function rawResponse(target: string, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${target}`, { headers }, (response) => {
      response.resume();
      resolve(response);
    });
    request.on('error', reject);
  });
}

async function get(urlPath: string, init?: RequestInit) {
  const response = await fetch(base + urlPath, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('static host rules', () => {
  it.each([
    ['/', '<h1>home</h1>'],
    ['/ComingSoon', '<h1>coming soon</h1>'],
  ])('%s answers 200', async (urlPath, body) => {
    const response = await get(urlPath);
    expect(response.status).toBe(200);
    expect(response.text).toBe(body);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it.each([
    '/nope',
    '/nope/',
    '/ComingSoon/extra',
    '/%E0%A4%A',
    '/..%2fsecret-outside-root.txt',
    '/../secret-outside-root.txt',
    '/a%00b',
    '/_headers',
  ])('%s answers 404 with 404.html, never cached, and never a file outside the root', async (urlPath) => {
    const response = await get(urlPath);
    expect(response.status).toBe(404);
    expect(response.text).toBe('<h1>not found</h1>');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['//ComingSoon', 200, '<h1>coming soon</h1>'],
    ['///', 200, '<h1>home</h1>'],
    ['//evil.example/ComingSoon', 404, '<h1>not found</h1>'],
    ['//evil.example', 404, '<h1>not found</h1>'],
    ['//_headers', 404, '<h1>not found</h1>'],
    ['/ComingSoon//', 404, '<h1>not found</h1>'],
    ['/%2F%2FComingSoon', 200, '<h1>coming soon</h1>'],
    ['/\\ComingSoon', 200, '<h1>coming soon</h1>'],
    ['/%2F..%2Fsecret-outside-root.txt', 404, '<h1>not found</h1>'],
    ['http://other.example/ComingSoon', 200, '<h1>coming soon</h1>'],
    [`/${'a'.repeat(5000)}`, 404, '<h1>not found</h1>'],
  ])('reads the raw target %s as a path, never as a host: %i', async (target, status, body) => {
    const response = await getRaw(target);
    expect(response.status).toBe(status);
    expect(response.text).toBe(body);
  });

  it.each([
    ['/./ComingSoon', '<h1>coming soon</h1>'],
    ['/a/../ComingSoon', '<h1>coming soon</h1>'],
    ['/%2e%2e/ComingSoon', '<h1>coming soon</h1>'],
    ['/.%2E/ComingSoon', '<h1>coming soon</h1>'],
    ['/ComingSoon/..', '<h1>home</h1>'],
  ])('resolves the dot segments of %s as URL parsers do', async (target, body) => {
    const response = await getRaw(target);
    expect(response.status).toBe(200);
    expect(response.text).toBe(body);
  });

  it.each([
    ['/index.html', '/'],
    ['/index', '/'],
    ['/index/', '/'],
    ['//index.html', '/'],
    ['/ComingSoon/', '/ComingSoon'],
    ['/ComingSoon.html', '/ComingSoon'],
    ['//ComingSoon/', '/ComingSoon'],
    ['/ComingSoon/.', '/ComingSoon'],
    ['/404.html', '/404'],
    ['/ComingSoon/?access_token=abc&keep=1', '/ComingSoon?access_token=abc&keep=1'],
    ['/index.html?access_token=a%20b', '/?access_token=a%20b'],
  ])('answers %s with 308 to its one address %s, the query carried along', async (target, location) => {
    const response = await getRaw(target);
    expect(response.status).toBe(308);
    expect(response.location).toBe(location);
  });

  it('redirects a folder to its trailing slash, and its index.html to the folder', async () => {
    expect(await getRaw('/docs')).toMatchObject({ status: 308, location: '/docs/' });
    expect(await getRaw('/docs/')).toMatchObject({ status: 200, text: '<h1>docs</h1>' });
    expect(await getRaw('/docs/index.html')).toMatchObject({ status: 308, location: '/docs/' });
  });

  it('caches as Cloudflare Pages does: the rules over its default for files, the rules alone on redirects', async () => {
    const unnamed = await get('/ComingSoon/__next.txt');
    expect([unnamed.status, unnamed.headers.get('cache-control')]).toEqual([200, 'public, max-age=0, must-revalidate']);
    expect((await get('/ComingSoon/')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/index')).headers.get('cache-control')).toBeNull();
  });

  it('caches an export without `_headers` (plain next build) as a CDN should: hashed assets a year, HTML revalidated', async () => {
    const plain = mkdtempSync(path.join(os.tmpdir(), 'static-host-plain-'));
    writeFileSync(path.join(plain, 'index.html'), '<h1>home</h1>');
    mkdirSync(path.join(plain, '_next', 'static'), { recursive: true });
    writeFileSync(path.join(plain, '_next', 'static', 'app-1.js'), 'console.log(1);');
    const server = createStaticServer({ root: plain });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const [html, asset] = await Promise.all([fetch(`${origin}/`), fetch(`${origin}/_next/static/app-1.js`)]);
      expect([html.headers.get('cache-control'), asset.headers.get('cache-control')]).toEqual([
        'no-cache',
        'public, max-age=31536000, immutable',
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it("adds Cloudflare Pages' own headers, which `_headers` replaces or removes with a `!` line", async () => {
    const own = await get('/');
    expect([
      own.headers.get('access-control-allow-origin'),
      own.headers.get('referrer-policy'),
      own.headers.get('x-content-type-options'),
    ]).toEqual(['*', 'strict-origin-when-cross-origin', 'nosniff']);
    const strict = mkdtempSync(path.join(os.tmpdir(), 'static-host-strict-'));
    writeFileSync(path.join(strict, 'index.html'), '<h1>home</h1>');
    writeFileSync(
      path.join(strict, '_headers'),
      '/*\n  Referrer-Policy: strict-origin\n  ! Access-Control-Allow-Origin\n',
    );
    const server = createStaticServer({ root: strict });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect([response.headers.get('access-control-allow-origin'), response.headers.get('referrer-policy')]).toEqual([
        null,
        'strict-origin',
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(strict, { recursive: true, force: true });
    }
  });

  it('sends the site-wide headers with a redirect and never a Location that names another host', async () => {
    const response = await get('/ComingSoon/');
    expect(response.headers.get('location')).toBe('/ComingSoon');
    expect(response.headers.get('x-site-wide')).toBe('1');
    expect((await getRaw('/%2F%2FComingSoon/')).location).toBe('/ComingSoon');
    expect(redirectLocation('//evil.example/x', '?a=1')).toBe('/evil.example/x?a=1');
    expect(redirectLocation('/\\evil.example/x', '')).toBe('/evil.example/x');
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const response = await fetch(`${base}/_next/static/chunks/app-abc123.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // fetch decodes transparently; the header proves the wire format.
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toContain('xxxx');
  });

  it.each([
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0', null],
    ['gzip;q=0, br;q=0', null],
    ['BR', 'br'],
    ['gzip, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', null],
    ['br;q=abc, gzip', 'gzip'],
  ])('honours quality values: Accept-Encoding %p is served as %p', async (accept, expected) => {
    const response = await rawResponse('/_next/static/chunks/app-abc123.js', { 'accept-encoding': accept });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding'] ?? null).toBe(expected);
  });

  it('revalidates with an ETag', async () => {
    const first = await get('/');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const second = await fetch(`${base}/`, { headers: { 'if-none-match': etag ?? '' } });
    expect(second.status).toBe(304);
  });

  it('refuses methods a static host does not serve', async () => {
    const response = await get('/', { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
