import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SITE_URL } from '../../../support/site-servers';
import { expect, test } from '../fixtures';

/** Runs in the page before anything else: sums every layout shift into `window.__shift`. */
function recordLayoutShifts(): void {
  const w = window as unknown as { __shift: number };
  w.__shift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__shift += (entry as unknown as { value: number }).value;
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * The site as a slow network delivers it: `/` arrives in two parts, the second after `pauseMs`,
 * split inside the copy; everything else is passed through from the site's own server.
 */
function serveHtmlInTwoParts(splitBefore: string, pauseMs: number): Promise<Server> {
  const server = createServer((request, response) => {
    void (async () => {
      const upstream = await fetch(new URL(request.url ?? '/', SITE_URL));
      const headers = Object.fromEntries(
        [...upstream.headers].filter(([name]) => !['content-length', 'content-encoding'].includes(name)),
      );
      const body = Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, headers);
      const text = body.toString('utf8');
      const split = request.url === '/' ? text.indexOf(splitBefore) : -1;
      if (split < 0) return response.end(body);
      response.write(text.slice(0, split));
      setTimeout(() => response.end(text.slice(split)), pauseMs);
    })().catch((error: unknown) => response.destroy(error as Error));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs in the page: the body background's mean RGB channel (0..1), whatever colour space CSS used. */
function bodyBackgroundLightness(): number {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.fillStyle = getComputedStyle(document.body).backgroundColor;
  context.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
  return (r + g + b) / 3 / 255;
}

const WIDTHS = [320, 375, 768, 1280, 1920];

test.describe('responsive layout', () => {
  for (const width of WIDTHS) {
    test(`no horizontal overflow at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      for (const path of ['/', '/missing-page']) {
        await page.goto(path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width}px`).toBeLessThanOrEqual(0);
        await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
      }
    });
  }

  test('loading the page causes no layout shift', async ({ page }) => {
    await page.addInitScript(recordLayoutShifts);
    for (const path of ['/', '/missing-page']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift), path).toBe(0);
    }
  });

  test('HTML that arrives in parts causes no layout shift either', async ({ page }) => {
    // A slow phone or network lets the browser paint a half-parsed page; the centred copy must not jump
    // when its last paragraphs arrive (seen once in CI under load: CLS 0.04).
    const server = await serveHtmlInTwoParts('<p class="mx-auto', 600);
    try {
      await page.addInitScript(recordLayoutShifts);
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await expect(page.getByText('Schauen Sie bald wieder vorbei')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

test.describe('screenshots', () => {
  const SIZES = { phone: { width: 375, height: 812 }, desktop: { width: 1440, height: 900 } };
  for (const [device, viewport] of Object.entries(SIZES)) {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`${device} ${colorScheme}`, async ({ page }, testInfo) => {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(viewport);
        for (const [name, path] of [
          ['coming-soon', '/'],
          ['not-found', '/missing-page'],
        ] as const) {
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          const shot = await page.screenshot({
            fullPage: true,
            path: testInfo.outputPath(`${name}-${device}-${colorScheme}.png`),
          });
          await testInfo.attach(`${name}-${device}-${colorScheme}`, { body: shot, contentType: 'image/png' });
          // The page follows the visitor's colour scheme: a near-white or near-black background.
          const lightness = await page.evaluate(bodyBackgroundLightness);
          if (colorScheme === 'dark') expect(lightness).toBeLessThan(0.1);
          else expect(lightness).toBeGreaterThan(0.9);
        }
      });
    }
  }
});
