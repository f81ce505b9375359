/**
 * The order of the first paint (build-steps/export/first-paint-order.ts): the page's copy is parsed
 * while its stylesheet is still on the way, the first paint waits for the stylesheet, and the
 * framework's scripts run only after it has arrived. A page whose parser waited for the stylesheet
 * instead ran the scripts that arrived meanwhile before its first paint, which Lighthouse's simulated
 * LCP charges to the page (docs/PERFORMANCE.md).
 */
import type { Route } from '@playwright/test';

import { expect, test } from '../fixtures';

test.describe('while the stylesheet is on its way', () => {
  for (const path of ['/', '/ComingSoon', '/404.html']) {
    test(`${path}: the copy is parsed and the early script has run; the framework and the paint wait`, async ({
      page,
    }) => {
      const held: Route[] = [];
      await page.route('**/_next/static/**/*.css', (route) => {
        held.push(route);
      });
      // No load event while a stylesheet is held: wait for the parser only.
      await page.goto(path, { waitUntil: 'commit' });
      await expect.poll(() => held.length, 'the stylesheet was requested').toBeGreaterThan(0);
      // Polled on a timer: no animation frame runs while rendering waits for the stylesheet.
      const parsed = await page.waitForFunction(
        () => {
          const heading = document.querySelector('h1')?.textContent;
          return (
            heading && {
              heading,
              notFoundTitle: document.querySelector('title[data-missing-page]') !== null,
              // An async script runs once the parser has reached it, fetched or not.
              chunkScripts: document.querySelectorAll('script[async][src^="/_next/static/"]').length,
              paints: performance.getEntriesByType('paint').length,
            }
          );
        },
        undefined,
        { polling: 100, timeout: 10_000 },
      );
      const state = (await parsed.jsonValue()) as {
        heading: string;
        notFoundTitle: boolean;
        chunkScripts: number;
        paints: number;
      };
      // The early script has judged the address (404.html names no page of the site) ...
      expect(state.notFoundTitle, 'the early script ran').toBe(path === '/404.html');
      // ... the framework's scripts wait, behind the payload that waits for the stylesheet ...
      expect(state.chunkScripts, 'async chunk scripts the parser has reached').toBe(0);
      // ... and nothing was painted unstyled.
      expect(state.paints, 'no paint before the stylesheet').toBe(0);

      for (const route of held) await route.continue();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect.poll(() => page.evaluate(() => performance.getEntriesByType('paint').length)).toBeGreaterThan(0);
      // The moved scripts still start the app: React hydrates the copy.
      await expect
        .poll(() =>
          page.evaluate(() =>
            Object.keys(document.querySelector('main') ?? {}).some((key) => key.startsWith('__react')),
          ),
        )
        .toBe(true);
    });
  }
});
