import { expect, test } from '../fixtures';

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
    await page.addInitScript(() => {
      const w = window as unknown as { __shift: number };
      w.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__shift += (entry as unknown as { value: number }).value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of ['/', '/missing-page']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift), path).toBe(0);
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
