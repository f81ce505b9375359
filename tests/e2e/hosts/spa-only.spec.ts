/**
 * The site on Base44 hosting as its documentation describes it (support/hosts/spa-only.ts): every
 * path that is no file answered with index.html and 200, and not one header of ours. The visitor
 * flows of tests/e2e/hosts/flows.ts run on it with every other host in the host matrix
 * (tests/hosts/flows.spec.ts); what is special here is that the host cannot tell a missing page from
 * the main page, so the page has to.
 */
import { expect, test } from './fixtures';
import { expectCopy, expectNotFoundScreen, HEADING } from './flows';

test.describe('an SPA-only host (Base44 hosting)', () => {
  test('the main page and every spelling of a registered page show the copy', async ({ page, hosts }) => {
    for (const path of ['/', '/index.html', '/ComingSoon', '/ComingSoon/', '/ComingSoon.html', '/Coming%53oon']) {
      await expectCopy(page, hosts.spaOnly.url, path);
    }
  });

  test('an unknown path shows the 404 screen from the first paint, never the copy', async ({ page, hosts }) => {
    const response = await page.request.get(`${hosts.spaOnly.url}/does-not-exist`);
    // What makes this host hard: the answer is the main page itself.
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain(HEADING);
    await expectNotFoundScreen(page, hosts.spaOnly.url, '/does-not-exist', 'does-not-exist');
    await expectNotFoundScreen(page, hosts.spaOnly.url, '/some/deep/path', 'some/deep/path');
  });

  test('the 404 screen needs none of the app scripts: the early check alone shows it', async ({ page, hosts }) => {
    await page.route('**/_next/static/**/*.js', (route) => route.abort());
    await page.goto(`${hosts.spaOnly.url}/Preise`);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('heading', { name: HEADING })).toBeHidden();
    await expect(page).toHaveTitle('Seite nicht gefunden (404)');
  });
});
