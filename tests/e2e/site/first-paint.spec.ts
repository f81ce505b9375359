/**
 * The order of the first paint (build-steps/export/first-paint-order.ts): the page's copy is parsed
 * while its stylesheet is still on the way, the first paint waits for the stylesheet, and the
 * framework's scripts run only after it has arrived. A page whose parser waited for the stylesheet
 * instead ran the scripts that arrived meanwhile before its first paint, which Lighthouse's simulated
 * LCP charges to the page (docs/PERFORMANCE.md).
 */
import type { Page, Route } from '@playwright/test';

import { expect, test } from '../fixtures';

/** Whether React has hydrated the page's `<main>` (it keeps its fiber on the element). */
function isHydrated(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    Object.keys(document.querySelector('main') ?? {}).some((key) => key.startsWith('__react')),
  );
}

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
              // The chunk scripts are in the document only once the loader has added them.
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
      // ... the framework's scripts wait for the first paint, which waits for the stylesheet ...
      expect(state.chunkScripts, 'chunk scripts in the document').toBe(0);
      // ... and nothing was painted unstyled.
      expect(state.paints, 'no paint before the stylesheet').toBe(0);

      for (const route of held) await route.continue();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect.poll(() => page.evaluate(() => performance.getEntriesByType('paint').length)).toBeGreaterThan(0);
      // The loader still starts the app: React hydrates the copy.
      await expect.poll(() => isHydrated(page)).toBe(true);
    });
  }
});

/** When the first paint was, and when each of the framework's chunks was requested. */
function chunkTimes() {
  const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
  const chunks = performance
    .getEntriesByType('resource')
    .filter((entry) => new URL(entry.name).pathname.startsWith('/_next/static/chunks/') && entry.name.endsWith('.js'))
    .map((entry) => entry.startTime);
  return { paint, chunks };
}

test.describe('the framework after the first paint', () => {
  for (const path of ['/', '/ComingSoon', '/404.html']) {
    test(`${path}: no chunk is requested before the first paint, on a first and on a repeat visit`, async ({
      page,
    }) => {
      for (const visit of ['first', 'repeat']) {
        await page.goto(path);
        // Hydrated: the framework ran.
        await expect.poll(() => isHydrated(page)).toBe(true);
        const { paint, chunks } = await page.evaluate(chunkTimes);
        expect(paint, `${visit} visit: the first paint was reported`).not.toBeNull();
        expect(chunks.length, `${visit} visit: chunks loaded`).toBeGreaterThan(0);
        expect(Math.min(...chunks), `${visit} visit: the first chunk request, after the paint`).toBeGreaterThanOrEqual(
          paint ?? Infinity,
        );
      }
    });
  }
});

test.describe("the stylesheet's request", () => {
  for (const path of ['/', '/ComingSoon', '/a-missing-page']) {
    test(`${path}: goes out on the response's preload header, before the parser reaches the <link>`, async ({
      page,
    }) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      const initiators: string[] = [];
      cdp.on('Network.requestWillBeSent', ({ request, initiator }) => {
        if (new URL(request.url).pathname.endsWith('.css')) initiators.push(initiator.type);
      });
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // `parser` is a request the HTML's <link> started (after the navigation's commit and the head's
      // parse); the preload header's request has no place in the document (`other`).
      expect(initiators).toEqual(['other']);
    });
  }
});
