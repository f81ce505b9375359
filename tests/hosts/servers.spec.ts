/**
 * The servers people run, each with the configuration the build generates (docs/DEPLOY.md):
 * Debian's Apache (the snippet, and `out/.htaccess`), Debian's Caddy, superstatic (Firebase Hosting's
 * engine) with `out/firebase.json` and serve (Vercel's) with `out/serve.json`. What the defaults of
 * the same servers do instead is tests/hosts/server-defaults.spec.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { matrixUrls, type MatrixHostId } from '../../support/hosts/matrix';
import { expect, test } from '../e2e/fixtures';
import { HOST_OWN_ERRORS, LONG_PATH, UNDECODABLE_PATH } from './host-errors';
import { exportFileOf, followRaw, rawGet, type RawAnswer } from './raw-request';

const SERVERS: MatrixHostId[] = ['apache', 'caddy', 'firebase', 'vercel'];
const OUT = path.resolve(__dirname, '../../out');
const QUERY = '?access_token=t0ken&keep=1';

/** Every address of the pages, as a visitor or a login redirect may send them. */
const PAGE_ADDRESSES: ReadonlyArray<readonly [string, string]> = [
  ['/', 'index.html'],
  ['/index.html', 'index.html'],
  ['/ComingSoon', 'ComingSoon.html'],
  ['/ComingSoon/', 'ComingSoon.html'],
  ['/ComingSoon.html', 'ComingSoon.html'],
];

const hashedAsset = () =>
  /src="(\/_next\/static\/[^"]+)"/.exec(readFileSync(path.join(OUT, 'index.html'), 'utf8'))?.[1] ?? '';

for (const id of SERVERS) {
  const { site } = matrixUrls(id);

  test.describe(`${id} with the generated configuration`, () => {
    test('every page address ends on the page with the query kept: no listing, no empty 404, no loop', async () => {
      for (const [address, file] of PAGE_ADDRESSES) {
        const { answer, address: final, hops } = await followRaw(site, `${address}${QUERY}`);
        expect([address, answer.status, exportFileOf(answer.body)]).toEqual([address, 200, file]);
        expect([address, new URL(final).search, hops <= 1]).toEqual([address, QUERY, true]);
      }
    });

    test("folders, unknown paths and the 404 screen's addresses get the 404 screen, never a listing", async () => {
      for (const target of [
        '/ComingSoon/x',
        '/Preise',
        '/vendor/',
        '/_next/',
        '/_not-found',
        '/404',
        '//evil.example/x',
      ]) {
        const answer = await rawGet(site, target);
        expect([target, answer.status, exportFileOf(answer.body)]).toEqual([target, 404, '404.html']);
      }
    });

    test('the security headers and the stylesheet preload on pages and on the 404 screen; HTML revalidated, hashed assets a year', async () => {
      const asset = hashedAsset();
      expect(asset).not.toBe('');
      // A missing hashed file gets the 404 screen revalidated, as any 404: a year would outlive a
      // deploy that brings the file back.
      const missingAsset = '/_next/static/chunks/no-such-chunk.js';
      const answers: Array<[string, RawAnswer]> = await Promise.all(
        ['/', '/ComingSoon', '/Preise', missingAsset, asset].map(
          async (target) => [target, await rawGet(site, target)] as [string, RawAnswer],
        ),
      );
      for (const [target, answer] of answers) {
        expect([target, answer.headers['content-security-policy']]).toEqual([
          target,
          expect.stringMatching(/frame-ancestors 'self'/),
        ]);
        expect([target, answer.headers['x-content-type-options'], answer.headers['referrer-policy']]).toEqual([
          target,
          'nosniff',
          'strict-origin',
        ]);
        expect([target, answer.headers['access-control-allow-origin']]).toEqual([target, undefined]);
        const cache = target === asset ? 'public, max-age=31536000, immutable' : 'no-cache';
        expect([target, answer.headers['cache-control']]).toEqual([target, cache]);
        // A page and the 404 screen: the stylesheet they link is preloaded before their parse.
        const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(answer.body)?.[1];
        if (target !== asset)
          expect([target, answer.headers.link]).toEqual([target, `<${stylesheet}>; rel=preload; as=style`]);
      }
    });
  });
}

test.describe("Apache's .htaccess set-up answers as the snippet does", () => {
  const snippet = matrixUrls('apache').site;
  const htaccess = matrixUrls('apache-htaccess').site;
  /** What Apache refuses before reading a folder's `.htaccess`: its own page there, the 404 screen with the snippet. */
  const BEFORE_FOLDER_RULES = [UNDECODABLE_PATH, '/%2F%2Fevil.example', '/ComingSoon%2F', '/a%00b', LONG_PATH];
  const essence = (answer: RawAnswer) => ({
    status: answer.status,
    location: answer.headers.location
      ? new URL(answer.headers.location).pathname + new URL(answer.headers.location).search
      : null,
    file: exportFileOf(answer.body),
    csp: answer.headers['content-security-policy'] ?? null,
    cache: answer.headers['cache-control'] ?? null,
  });

  test('the same status, Location, file and headers for pages, redirects, unknown paths and folders', async () => {
    const targets = [
      ...PAGE_ADDRESSES.map(([address]) => `${address}${QUERY}`),
      ...['/404', '/404.html', '/_headers', '/firebase.json', '/Preise', '/vendor/', '//ComingSoon', '/robots.txt'],
    ];
    for (const target of targets) {
      const [fromSnippet, fromHtaccess] = await Promise.all([rawGet(snippet, target), rawGet(htaccess, target)]);
      expect([target, essence(fromHtaccess)]).toEqual([target, essence(fromSnippet)]);
    }
  });

  test("paths Apache refuses before any folder rule: the snippet's 404 screen, .htaccess's Apache page", async () => {
    for (const target of BEFORE_FOLDER_RULES) {
      const [fromSnippet, fromHtaccess] = await Promise.all([rawGet(snippet, target), rawGet(htaccess, target)]);
      expect([target.slice(0, 20), exportFileOf(fromSnippet.body)]).toEqual([target.slice(0, 20), '404.html']);
      expect([target.slice(0, 20), fromHtaccess.status === fromSnippet.status, fromHtaccess.body]).toEqual([
        target.slice(0, 20),
        true,
        expect.stringMatching(/^<!DOCTYPE HTML PUBLIC "-\/\/(IETF\/\/DTD HTML 2\.0|W3C\/\/DTD HTML 4\.01)\/\/EN"/),
      ]);
    }
  });
});

test('where a host answers with its own error page, it answers exactly what tests/hosts/host-errors.ts says', async () => {
  for (const error of HOST_OWN_ERRORS) {
    const answer = await rawGet(matrixUrls(error.host).site, error.path);
    expect([error.host, error.path.slice(0, 20), answer.status, answer.body]).toEqual([
      error.host,
      error.path.slice(0, 20),
      error.status,
      expect.stringMatching(error.body),
    ]);
  }
});

/**
 * The 404 screen's own addresses are no page: a server we configure answers them 404, and where one
 * serves them with 200 (Cloudflare Pages' `/404`, Firebase's `/_not-found.html`, Vercel's files) the
 * answer says `X-Robots-Tag: noindex`, so no search engine indexes a soft 404.
 */
test("the 404 screen's own addresses: a 404, or a 200 that search engines are told not to index", async () => {
  const hosts: MatrixHostId[] = ['model', 'cloudflare', 'nginx', ...SERVERS];
  for (const id of hosts) {
    for (const target of ['/404', '/404.html', '/_not-found', '/_not-found.html']) {
      const { answer } = await followRaw(matrixUrls(id).site, target);
      const verdict = answer.status === 404 ? 404 : answer.headers['x-robots-tag'];
      expect([id, target, exportFileOf(answer.body), verdict]).toEqual([
        id,
        target,
        '404.html',
        answer.status === 404 ? 404 : 'noindex',
      ]);
    }
  }
});
