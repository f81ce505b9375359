/**
 * `Cross-Origin-Opener-Policy: same-origin` (deploy/headers/policy.ts) gives the page a browsing
 * context group of its own. Its cost is a renderer process where the navigation comes from a
 * document without it (docs/PERFORMANCE.md, "The gap is the host's headers"); this is what it buys:
 * a window of another site that opens the page keeps no reference to it, so it cannot navigate it
 * to a look-alike, count its frames or watch it load. The second test strips the header on the way
 * and sees the reference kept, so the first one sees the header at work, not the browser's default.
 */
import type { BrowserContext, Page } from '@playwright/test';

import { expect, test } from '../fixtures';

/** Another site: `localhost` is not `127.0.0.1`'s site. Answered by the test itself, no header. */
function otherSiteOf(siteUrl: string): string {
  return `http://localhost:${new URL(siteUrl).port}/another-site`;
}

/** Opens the site's `/` from a page of another site; resolves with the window it opened. */
async function openFromAnotherSite(page: Page, context: BrowserContext, siteUrl: string): Promise<Page> {
  const other = otherSiteOf(siteUrl);
  await page.route(other, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Another site</title>' }),
  );
  await page.goto(other);
  const opened = context.waitForEvent('page');
  await page.evaluate((url) => {
    (window as unknown as { opened: Window | null }).opened = window.open(url);
  }, new URL('/', siteUrl).href);
  const popup = await opened;
  await expect(popup.locator('main')).toBeVisible();
  return popup;
}

const openerKeepsReference = (page: Page) =>
  page.evaluate(() => {
    const opened = (window as unknown as { opened: Window | null }).opened;
    return opened !== null && !opened.closed;
  });

test.describe('Cross-Origin-Opener-Policy', () => {
  test('a window of another site that opens the page keeps no reference to it', async ({ page, context, baseURL }) => {
    const popup = await openFromAnotherSite(page, context, baseURL ?? '');
    expect(await popup.evaluate(() => window.opener !== null), 'the page sees no opener').toBe(false);
    await expect.poll(() => openerKeepsReference(page), 'the opener holds a closed window').toBe(false);
  });

  test('without the header the same opener keeps its reference (what the test above sees is the header)', async ({
    page,
    context,
    baseURL,
  }) => {
    const site = new URL(baseURL ?? '');
    await context.route(`${site.origin}/`, async (route) => {
      const response = await route.fetch();
      const headers = Object.entries(response.headers()).filter(([name]) => name !== 'cross-origin-opener-policy');
      await route.fulfill({ response, headers: Object.fromEntries(headers) });
    });
    const popup = await openFromAnotherSite(page, context, site.href);
    expect(await popup.evaluate(() => window.opener !== null)).toBe(true);
    expect(await openerKeepsReference(page)).toBe(true);
  });
});
