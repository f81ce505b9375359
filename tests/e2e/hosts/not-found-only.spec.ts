/**
 * The site on a host that answers what is missing with 404.html and status 404 and sends no header
 * of ours (support/hosts/not-found-only.ts, GitHub Pages): the same visitor flows as everywhere
 * (tests/e2e/hosts/flows.ts), under the policy the pages carry themselves.
 */
import { expect, test } from './fixtures';
import { expectCopy, expectCraftedPath, expectNotFoundScreen, expectTokenKeptOutOfRequests, HEADING } from './flows';

test.describe('a host with 404.html and no headers (GitHub Pages)', () => {
  test('the main page and the extensionless page show the copy', async ({ page, hosts }) => {
    for (const path of ['/', '/ComingSoon', '/ComingSoon.html']) await expectCopy(page, hosts.notFoundOnly.url, path);
  });

  test('an unknown path shows the 404 screen with status 404', async ({ page, hosts }) => {
    expect((await page.request.get(`${hosts.notFoundOnly.url}/Preise`)).status()).toBe(404);
    await expectNotFoundScreen(page, hosts.notFoundOnly.url, '/Preise', 'Preise');
  });

  test('crafted paths and the token of a login redirect', async ({ page, hosts }) => {
    await expectCraftedPath(page, hosts.notFoundOnly.url, '//ComingSoon', HEADING);
    await expectCraftedPath(page, hosts.notFoundOnly.url, '//evil.example/x', 'Page Not Found');
    await expectTokenKeptOutOfRequests(page, hosts.notFoundOnly.url, '/');
  });
});
