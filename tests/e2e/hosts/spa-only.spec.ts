/**
 * The site on Base44 hosting as its documentation describes it (support/hosts/spa-only.ts): every
 * path that is no file answered with index.html and 200, and not one header of ours. The visitor
 * flows are those of tests/e2e/hosts/flows.ts; what is special here is that the host cannot tell a
 * missing page from the main page, so the page has to.
 */
import { EDITOR_PORT } from '../../../support/editor-preview';
import { startEditorFixture } from '../fixtures/editor/server';
import { expect, test } from './fixtures';
import {
  expectAccessRestricted,
  expectAdminNote,
  expectCopy,
  expectCraftedPath,
  expectEditorHandshake,
  expectGoHome,
  expectLoginRoundTrip,
  expectNotFoundScreen,
  expectTokenKeptOutOfRequests,
  HEADING,
} from './flows';

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

  test('Go Home leads to the copy, with its title and indexable', async ({ page, hosts }) => {
    await expectGoHome(page, hosts.spaOnly.url, '/does/not/exist');
  });

  test('an admin sees the admin note on a missing page', async ({ page, hosts }) => {
    await expectAdminNote(page, hosts.spaOnly.url, '/Impressum');
  });

  test('crafted paths with a token: the page or the 404 screen, token gone, still on the site', async ({
    page,
    hosts,
  }) => {
    for (const [path, heading] of [
      ['//ComingSoon', HEADING],
      ['//evil.example/x', 'Page Not Found'],
      ['/%2F%2Fevil.example', 'Page Not Found'],
      ['/%E0%A4%A', 'Page Not Found'],
      [`/${'a'.repeat(4000)}`, 'Page Not Found'],
    ] as const) {
      await expectCraftedPath(page, hosts.spaOnly.url, path, heading);
    }
  });

  test('the token of a login redirect stays out of every URL and Referer, on a page and on a missing one', async ({
    page,
    hosts,
  }) => {
    await expectTokenKeptOutOfRequests(page, hosts.spaOnly.url, '/');
    await expectTokenKeptOutOfRequests(page, hosts.spaOnly.url, '/Kontakt');
  });

  test('the login round trip through the platform', async ({ page, hosts }) => {
    await expectLoginRoundTrip(page, hosts.spaOnly.url);
  });

  test('Access Restricted for an unregistered user', async ({ page, hosts }) => {
    await expectAccessRestricted(page, hosts.spaOnly.url);
  });

  test('the allowlisted editor frames the preview build and talks to it', async ({ page, hosts }) => {
    const editor = await startEditorFixture(EDITOR_PORT);
    try {
      await expectEditorHandshake(page, editor, hosts.spaOnlyPreview.url);
    } finally {
      await editor.close();
    }
  });
});
