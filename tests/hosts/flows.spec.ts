/**
 * The same visitor flows (tests/e2e/hosts/flows.ts) on the hosts of the matrix, in Chromium, under
 * whatever each host sends: what a visitor sees and what leaves the page must not depend on where
 * the site is deployed. Every flow runs on our model, nginx, Cloudflare Pages and the header-less
 * hosts; the servers we configure like one of those (Apache, Caddy, superstatic, serve) run the flows
 * whose outcome depends on the host (support/hosts/matrix.ts `FlowSet` says which and why). S3 is
 * left out here: it has no extensionless pages (`/ComingSoon` is its 404), which
 * tests/hosts/host-table.spec.ts checks as docs/DEPLOY.md says; so is Apache's `.htaccess` set-up,
 * which tests/hosts/servers.spec.ts compares with its snippet request by request.
 *
 * The flows wait on the network far more than they compute, so they run on two workers, each test
 * on its own: every one starts from a fresh page and its own login. Only the editor handshakes run one
 * after another, as the preview builds allow the stand-in editor on one fixed port (EDITOR_PORT).
 */
import { EDITOR_PORT } from '../../support/editor-preview';
import { MATRIX_HOSTS, matrixUrls, type MatrixHostId } from '../../support/hosts/matrix';
import { expect, test } from '../e2e/fixtures';
import { startEditorFixture } from '../e2e/fixtures/editor/server';
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
} from '../e2e/hosts/flows';
import { HOST_OWN_ERRORS, LONG_PATH, UNDECODABLE_PATH } from './host-errors';

const NOT_FOUND = 'Page Not Found';

/** Links a visitor may be sent with: the page or the 404 screen, the token gone, still on the site. */
const CRAFTED_PATHS: ReadonlyArray<readonly [string, string]> = [
  ['//ComingSoon', HEADING],
  ['//evil.example/x', NOT_FOUND],
  ['/%2F%2Fevil.example', NOT_FOUND],
  [UNDECODABLE_PATH, NOT_FOUND],
  [LONG_PATH, NOT_FOUND],
];

/**
 * All of them, but those a host answers with its own error page, whatever its configuration says
 * (tests/hosts/host-errors.ts lists them with the reason, and tests/hosts/servers.spec.ts checks what
 * each host answers there instead).
 */
function craftedPathsOn(id: MatrixHostId) {
  return CRAFTED_PATHS.filter(([path]) => !HOST_OWN_ERRORS.some((error) => error.host === id && error.path === path));
}

test.describe.configure({ mode: 'parallel' });

const HOSTS_WITH_FLOWS = MATRIX_HOSTS.filter((candidate) => candidate.flows !== 'none');

for (const host of HOSTS_WITH_FLOWS) {
  const { site } = matrixUrls(host.id);

  test.describe(host.title, () => {
    test('/ and /ComingSoon show the German copy, in German, without a console error', async ({
      page,
      consoleErrors,
    }) => {
      for (const path of ['/', '/ComingSoon']) {
        await expectCopy(page, site, path);
        await expect(page.locator('html')).toHaveAttribute('lang', 'de');
        // The icon the page links is a PNG (support/icon-raster.ts), and this host serves it as one.
        const icon = await page.locator('link[rel~="icon"]').first().getAttribute('href');
        const answer = await page.request.get(new URL(icon ?? '', page.url()).href);
        expect([path, icon?.split('?')[0], answer.status(), answer.headers()['content-type']]).toEqual([
          path,
          '/icon.png',
          200,
          'image/png',
        ]);
      }
      expect(consoleErrors).toEqual([]);
    });

    test('an unknown path shows the 404 screen from the first paint; Go Home leads back', async ({ page }) => {
      await expectNotFoundScreen(page, site, '/Preise', 'Preise');
      await expectGoHome(page, site, '/does/not/exist');
    });

    test('crafted paths with a token: the page or the 404 screen, token gone, still on the site', async ({
      page,
      consoleErrors,
    }) => {
      for (const [path, heading] of craftedPathsOn(host.id)) await expectCraftedPath(page, site, path, heading);
      // A missing page's own document answers 404 (400, 403 or 500 where a server refuses the path
      // itself and still shows the 404 screen), which the browser reports; nothing else may fail.
      expect(consoleErrors.filter((text) => !/status of (40[034]|500)/.test(text))).toEqual([]);
    });

    test('the token of a login redirect stays out of every URL and Referer, on a page and a missing one', async ({
      page,
    }) => {
      await expectTokenKeptOutOfRequests(page, site, '/');
      await expectTokenKeptOutOfRequests(page, site, '/Kontakt');
    });

    if (host.flows !== 'every') return;

    test('an admin sees the admin note on a missing page', async ({ page }) => {
      await expectAdminNote(page, site, '/Impressum');
    });

    test('the login round trip through the platform', async ({ page }) => {
      await expectLoginRoundTrip(page, site);
    });

    test('Access Restricted for an unregistered user', async ({ page }) => {
      await expectAccessRestricted(page, site);
    });
  });
}

test.describe('the allowlisted editor frames the preview build and talks to it', () => {
  test.describe.configure({ mode: 'default' });

  for (const host of HOSTS_WITH_FLOWS) {
    test(host.title, async ({ page }) => {
      const editor = await startEditorFixture(EDITOR_PORT);
      try {
        await expectEditorHandshake(page, editor, matrixUrls(host.id).preview as string);
      } finally {
        await editor.close();
      }
    });
  }
});
