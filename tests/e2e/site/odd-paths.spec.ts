/**
 * Paths a crafted link may carry. Each must render the page or the 404 screen, with the access token
 * gone from the address bar, and must not crash the app (a path starting with `//` once made the
 * token strip call `history.replaceState` with a protocol-relative URL: a SecurityError). The preview
 * server must resolve them as static hosts do: `//x/...` is a path, never a host name.
 */
import { expect, test } from '../fixtures';
import { loginToken } from '../support/platform';

const SITE = 'http://127.0.0.1:3000';
const PAGE_HEADING = 'Unsere neue Website ist fast startklar';

// [path as sent, what the browser shows]
const ODD_PATHS: Array<[string, 'page' | 'not-found']> = [
  ['//ComingSoon', 'page'],
  ['//127.0.0.1:3000/ComingSoon', 'not-found'],
  ['//evil.example/x', 'not-found'],
  ['/%2F%2Fevil.example', 'not-found'],
  ['/\\evil.example/x', 'not-found'],
  ['/%E0%A4%A', 'not-found'],
  ['/%', 'not-found'],
  [`/${'a'.repeat(4000)}`, 'not-found'],
  ['/ComingSoon/', 'page'],
];

test.describe('odd paths with a token in the address bar', () => {
  for (const [path, shows] of ODD_PATHS) {
    test(`${path.slice(0, 40)} shows the ${shows === 'page' ? 'page' : '404 screen'} without the token`, async ({
      page,
      consoleErrors,
    }) => {
      // A live token: a dead one would (rightly) send the visitor to the login page.
      const token = await loginToken('coming-soon', 'user@example.com');
      const response = await page.goto(`${SITE}${path}?access_token=${encodeURIComponent(token)}&keep=1`);
      expect(response?.status()).toBe(shows === 'page' ? 200 : 404);
      const heading = shows === 'page' ? PAGE_HEADING : 'Page Not Found';
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect.poll(() => page.url()).not.toContain(token);
      const url = new URL(page.url());
      expect(url.origin).toBe(SITE);
      expect(url.searchParams.get('keep')).toBe('1');
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByText("This page couldn't load")).toHaveCount(0);
      // A missing page's own document answers 404, which the browser reports; nothing else may fail.
      expect(consoleErrors.filter((text) => !/status of 404/.test(text))).toEqual([]);
    });
  }
});

test.describe('the preview server resolves paths as static hosts do', () => {
  for (const [path, status] of [
    ['//ComingSoon', 200],
    ['//evil.example/ComingSoon', 404],
    ['//ComingSoon/', 200],
    ['//_headers', 404],
    ['/%2e%2e/package.json', 404],
    ['/..%2fpackage.json', 404],
  ] as const) {
    test(`${path} answers ${status}`, async ({ request }) => {
      const response = await request.get(`${SITE}${path}`);
      expect(response.status()).toBe(status);
      const body = await response.text();
      if (status === 200) expect(body).toContain(PAGE_HEADING);
      else expect(body).toContain('Page Not Found');
    });
  }
});
