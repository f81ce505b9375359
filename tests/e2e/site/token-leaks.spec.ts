/**
 * After a login redirect the platform sends the visitor back with `?access_token=...` in the address
 * bar. The browser asks for the page's scripts, styles and data before any script can strip it, so
 * the page's referrer policy is what keeps the token out of every Referer, and the shell must keep it
 * out of every URL it builds. Every request the browser makes is recorded, with the headers it
 * really sent.
 */
import { expect, test } from '../fixtures';
import { loginToken, PLATFORM_URL, SEEDED_PASSWORD } from '../support/platform';
import { placesCarrying, recordRequests } from './request-log';

const SITE = 'http://127.0.0.1:3000';

test.describe('the access token from a login redirect', () => {
  for (const [label, path, heading] of [
    ['the main page', '/', 'Unsere neue Website ist fast startklar'],
    ['a registered page', '/ComingSoon', 'Unsere neue Website ist fast startklar'],
    ['a missing page', '/Kontakt', 'Page Not Found'],
  ] as const) {
    test(`on ${label}: no request carries it in its URL or Referer`, async ({ page }) => {
      const token = await loginToken('coming-soon', 'user@example.com');
      const log = recordRequests(page);
      const start = `${SITE}${path}?access_token=${encodeURIComponent(token)}&keep=1`;
      log.markStart(start);
      await page.goto(start);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect.poll(() => new URL(page.url()).searchParams.has('access_token')).toBe(false);
      expect(new URL(page.url()).searchParams.get('keep')).toBe('1');
      await page.waitForLoadState('networkidle');
      // Follow a same-origin link too: its navigation request has a Referer of its own.
      if (path === '/Kontakt') {
        await page.getByRole('link', { name: 'Go Home' }).click();
        await expect(page).toHaveURL(`${SITE}/`);
      }
      await page.reload();
      await page.waitForLoadState('networkidle');

      const requests = (await log.settled()).filter((request) => !request.isStart);
      expect(requests.length).toBeGreaterThan(3);
      expect(placesCarrying(requests, token, ['url', 'referer'])).toEqual([]);
      // The token still reached the platform, where it belongs: as a bearer token.
      expect(requests.some((request) => request.authorization === `Bearer ${token}`)).toBe(true);
    });
  }

  test('after a real sign-in on the platform login page: no request carries it in its URL or Referer', async ({
    page,
  }) => {
    await page.goto('/?app_id=members-only');
    await page.waitForURL((url) => url.origin === PLATFORM_URL && url.pathname === '/login');
    const log = recordRequests(page);
    // The platform's redirect back is the one request whose URL must hold the token.
    log.markStart((url) => url.startsWith(`${SITE}/`) && new URL(url).searchParams.has('access_token'));
    await page.getByLabel('E-mail').fill('user@example.com');
    await page.getByLabel('Password').fill(SEEDED_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.origin === SITE);
    await expect(page.getByRole('heading', { level: 1, name: 'Unsere neue Website ist fast startklar' })).toBeVisible();
    await expect.poll(() => page.url()).toBe(`${SITE}/?app_id=members-only`);
    await page.waitForLoadState('networkidle');

    const requests = await log.settled();
    const start = requests.find((request) => request.isStart);
    const token = start ? new URL(start.url).searchParams.get('access_token') : null;
    expect(token).toBeTruthy();
    const afterRedirect = requests.slice(requests.indexOf(start as (typeof requests)[number]) + 1);
    expect(afterRedirect.length).toBeGreaterThan(3);
    expect(placesCarrying(afterRedirect, token ?? '', ['url', 'referer'])).toEqual([]);
    expect(afterRedirect.some((request) => request.authorization === `Bearer ${token}`)).toBe(true);
  });
});
