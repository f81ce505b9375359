/**
 * A token the platform rejects (401) must be dropped from the client at once: no later request may
 * carry it, in `Authorization`, in a URL (the socket handshake puts the token in its query) or in a
 * Referer.
 *
 * The SDK owns the fix (lib/sdk transport/token store): a 401 to any call that carried the user token
 * clears it from the client and from storage before the call rejects. lib/auth alone could not do
 * it: here the 401 comes from the visit log, not from `User/me`.
 */
import { ACCESS_TOKEN_KEY, DUPLICATE_TOKEN_KEY } from '../../../lib/sdk';
import { expect, test } from '../fixtures';
import { placesCarrying, recordRequests } from '../site/request-log';
import { loginToken, PLATFORM_URL, useStoredToken } from '../support/platform';

const HEADING = 'Unsere neue Website ist fast startklar';

test('a token the platform rejects mid-visit is never sent again', async ({ page }) => {
  const token = await loginToken('coming-soon', 'user@example.com');
  // Seeded once: going back to the 404 page may load it afresh, and a seed on every load would put
  // the dropped token back into storage (something no real browser does).
  await useStoredToken(page, token);
  // The session ends while the visitor is on the site (expired or revoked): the platform answers
  // the next call made with this token with a 401, as it does for any dead token.
  let rejectedAt = -1;
  const log = recordRequests(page);
  await page.route(`${PLATFORM_URL}/api/app-logs/**`, async (route) => {
    if (rejectedAt < 0) rejectedAt = log.count();
    await route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({
        message: 'The access token is invalid or has expired',
        extra_data: { reason: 'invalid_token' },
      }),
    });
  });

  // A signed-in visitor on a missing page goes home (logged: rejected), then back and forth, which
  // logs the visit of the main page again.
  await page.goto('/Kontakt');
  await page.waitForResponse((response) => response.url().endsWith('/entities/User/me') && response.status() === 200);
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await expect.poll(() => rejectedAt).toBeGreaterThanOrEqual(0);
  // The client has taken the 401 in: the token is out of storage. (Leaving the page while the 401 is
  // still on its way aborts it, and the next page would rightly try the stored token once more: a
  // race of this test's steps, which once lost under load, not of the client.)
  await expect
    .poll(() =>
      page.evaluate(
        (keys) => keys.map((key) => window.localStorage.getItem(key)),
        [ACCESS_TOKEN_KEY, DUPLICATE_TOKEN_KEY],
      ),
    )
    .toEqual([null, null]);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await page.waitForLoadState('networkidle');

  const requests = await log.settled();
  const afterRejection = requests.slice(rejectedAt + 1);
  expect(placesCarrying(afterRejection, token, ['authorization', 'url', 'referer'])).toEqual([]);
});
