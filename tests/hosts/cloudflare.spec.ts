/**
 * Cloudflare Pages' real runtime as the oracle of our model (deploy/static-host, what `npm start`
 * serves): the same raw requests to both must get the same status, Location, file and headers, so the
 * model's 308s, dot segments and `//` handling are Pages' own. Where wrangler's dev server answers what
 * Pages cannot (its file lookup fails: a file used as a folder, a NUL, a segment longer than a file
 * name may be), the difference is a documented row checked on both. And on workerd: no response
 * carries `Access-Control-Allow-Origin`, and a token in the query survives a 308, then leaves the
 * address.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { matrixUrls } from '../../support/hosts/matrix';
import { expect, test } from '../e2e/fixtures';
import { HEADING } from '../e2e/hosts/flows';
import { placesCarrying, recordRequests } from '../e2e/site/request-log';
import { loginToken } from '../e2e/support/platform';
import { exportFileOf, rawGet, type RawAnswer } from './raw-request';

const OUT = path.resolve(__dirname, '../../out');
const cloudflare = matrixUrls('cloudflare').site;
const model = matrixUrls('model').site;

const TARGETS = [
  ...['/', '/index', '/index/', '/index.html', '//index.html', '/index%2Ehtml'],
  ...['/ComingSoon', '/ComingSoon/', '/ComingSoon.html', '/ComingSoon/index', '/ComingSoon/index/'],
  ...['/ComingSoon/index.html', '/ComingSoon%2F', '/Coming%53oon', '/comingsoon', '/ComingSoon%3Fx'],
  ...['/404', '/404/', '/404.html', '/_not-found', '/_not-found/', '/_not-found.html'],
  ...['/Preise', '/some/deep/path', '/ComingSoon/x', '/%E0%A4%A', '/robots', '/robots.txt', '/icon.svg'],
  ...['//ComingSoon', '//ComingSoon/', '///', '//', '/ComingSoon//', '/ComingSoon//x', '//evil.example/x'],
  ...['/./ComingSoon', '/a/../ComingSoon', '/%2e%2e/ComingSoon', '/.%2E/ComingSoon', '/%2e/ComingSoon'],
  ...['/ComingSoon/.', '/ComingSoon/..', '/\\ComingSoon', '/%2F%2FComingSoon', '/%5cevil.example'],
  ...['/_next/static/missing.js', '/ComingSoon/?access_token=abc&keep=1', '/index.html?access_token=a%20b'],
];

/** Where wrangler's own file lookup throws and it answers 502; Pages looks paths up in a manifest. */
const DEV_SERVER_ONLY = ['/_headers', '/icon.svg/', '/a%00b', `/${'a'.repeat(300)}`];

const COMPARED_HEADERS = [
  'location',
  'cache-control',
  'content-security-policy',
  'referrer-policy',
  'permissions-policy',
  'x-content-type-options',
  'cross-origin-opener-policy',
  'access-control-allow-origin',
  'x-robots-tag',
  'link',
];

/** What a visitor's browser acts on: status, which file, and the headers that protect or cache it. */
function essence(answer: RawAnswer) {
  const headers = Object.fromEntries(COMPARED_HEADERS.map((name) => [name, answer.headers[name] ?? null]));
  return { status: answer.status, file: answer.status === 308 ? '(redirect)' : exportFileOf(answer.body), headers };
}

test.describe('our model answers as Cloudflare Pages does', () => {
  test('the same raw requests get the same status, Location, file and headers', async () => {
    for (const target of TARGETS) {
      const [pages, ours] = await Promise.all([rawGet(cloudflare, target), rawGet(model, target)]);
      expect(essence(ours), target).toEqual(essence(pages));
    }
  });

  test('where wrangler dev fails to look a path up (502), the model answers 404 with the 404 page', async () => {
    for (const target of DEV_SERVER_ONLY) {
      const [pages, ours] = await Promise.all([rawGet(cloudflare, target), rawGet(model, target)]);
      expect([pages.status, pages.body], target).toEqual([502, expect.stringMatching(/Could not serve static asset/)]);
      expect([ours.status, exportFileOf(ours.body)], target).toEqual([404, '404.html']);
    }
  });
});

test('on workerd no answer carries Access-Control-Allow-Origin: pages, redirects, 404s, assets', async () => {
  const html = readFileSync(path.join(OUT, 'index.html'), 'utf8');
  const asset = /src="(\/_next\/static\/[^"]+)"/.exec(html)?.[1] ?? '';
  expect(asset).not.toBe('');
  for (const target of ['/', '/ComingSoon', '/ComingSoon/', '/Preise', asset, '/robots.txt', '/icon.svg']) {
    const answer = await rawGet(cloudflare, target);
    expect([target, answer.headers['access-control-allow-origin']]).toEqual([target, undefined]);
  }
});

test('a token in the query survives the 308 to the page, then leaves the address', async ({ page }) => {
  const token = await loginToken('coming-soon', 'user@example.com');
  const query = `access_token=${encodeURIComponent(token)}&keep=1`;
  const log = recordRequests(page);
  log.markStart(`${cloudflare}/ComingSoon?${query}`);
  const response = await page.goto(`${cloudflare}/ComingSoon/?${query}`);
  const redirect = response?.request().redirectedFrom();
  expect((await redirect?.response())?.status()).toBe(308);
  expect(response?.url()).toBe(`${cloudflare}/ComingSoon?${query}`);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await expect.poll(() => page.url()).toBe(`${cloudflare}/ComingSoon?keep=1`);
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBe(token);
  await page.waitForLoadState('networkidle');
  const requests = await log.settled();
  const after = requests.slice(requests.findIndex((request) => request.isStart) + 1);
  expect(after.length).toBeGreaterThan(3);
  expect(placesCarrying(after, token, ['url', 'referer'])).toEqual([]);
});
