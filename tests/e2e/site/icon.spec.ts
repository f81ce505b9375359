/**
 * The page's icon is a PNG drawn from public/icon.svg (support/icon-raster.ts): Chromium builds a
 * page and a frame of its own on the main thread for an SVG icon, at the first paint; a PNG decodes
 * in well under a millisecond. The PNG must stay the SVG's picture: `npm run icons` redraws it.
 * That each host serves it as a PNG: tests/e2e/site/pages.spec.ts here, tests/hosts/flows.spec.ts on
 * the hosts of the matrix.
 */
import { readFileSync } from 'node:fs';

import { ICON_PNG, ICON_SIZE, rasterizeIcon } from '../../../support/icon-raster';
import { expect, test } from '../fixtures';

test.describe('the page icon', () => {
  for (const path of ['/', '/ComingSoon', '/404.html', '/Preise']) {
    test(`${path}: every icon the page links, before and after hydration, is a PNG`, async ({ page }) => {
      const iconRequests: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() !== 'document' && /\/icon\.|favicon/.test(new URL(request.url()).pathname))
          iconRequests.push(new URL(request.url()).pathname);
      });
      await page.goto(path);
      await expect(page.locator('main')).toBeVisible();
      const icons = () =>
        page.evaluate(() =>
          Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]'), (link) => ({
            path: new URL(link.href).pathname,
            type: link.type,
          })),
        );
      await expect.poll(async () => (await icons()).length, 'the page links an icon').toBeGreaterThan(0);
      // The framework starts after the first paint; let it hydrate the head as well.
      await page.waitForLoadState('networkidle');
      for (const icon of await icons()) expect(icon).toEqual({ path: '/icon.png', type: 'image/png' });
      expect(iconRequests.filter((requested) => requested.endsWith('.svg'))).toEqual([]);
    });
  }

  test('app/icon.png is public/icon.svg drawn at its size (run `npm run icons` after changing the SVG)', async ({
    page,
  }) => {
    const drawn = await rasterizeIcon(page);
    const committed = readFileSync(ICON_PNG);
    const difference = await page.evaluate(
      async ({ images, size }) => {
        const pixels = await Promise.all(
          images.map(async (base64) => {
            const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
            if (bitmap.width !== size || bitmap.height !== size) return null;
            const canvas = new OffscreenCanvas(size, size);
            const context = canvas.getContext('2d');
            context?.drawImage(bitmap, 0, 0);
            return context?.getImageData(0, 0, size, size).data ?? null;
          }),
        );
        const [a, b] = pixels;
        if (!a || !b) return null;
        // A pixel counts as changed when a channel moved by more than an edge's smoothing does.
        let changed = 0;
        for (let i = 0; i < a.length; i += 4) {
          let delta = 0;
          for (let channel = 0; channel < 4; channel += 1)
            delta = Math.max(delta, Math.abs((a[i + channel] ?? 0) - (b[i + channel] ?? 0)));
          if (delta > 24) changed += 1;
        }
        return { changedPixels: changed, of: a.length / 4 };
      },
      { images: [drawn.toString('base64'), committed.toString('base64')], size: ICON_SIZE },
    );
    expect(difference, `app/icon.png is ${ICON_SIZE}×${ICON_SIZE}`).not.toBeNull();
    // Another Chromium may smooth the edges a little differently; a check mark 1/64 thinner changes
    // 116 pixels.
    expect(difference?.changedPixels).toBeLessThanOrEqual(20);
  });
});
