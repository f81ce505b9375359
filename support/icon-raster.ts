/**
 * The page's icon as a PNG drawn from its SVG (public/icon.svg) by Chromium. Browsers decode a page's
 * icon in the page's renderer, and an SVG icon is a document of its own there: Chromium builds a
 * page and a frame for it on the main thread, at the first paint (10–30 ms on this machine, four
 * times that on Lighthouse's phone; docs/PERFORMANCE.md). A PNG of the same picture decodes in well
 * under a millisecond, so the page links the PNG; the SVG stays the one source and is still served.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** The drawing every icon is made from, served as it is at /icon.svg. */
export const ICON_SOURCE = path.resolve(__dirname, '../public/icon.svg');
/** What Next's file convention links as the page's icon (`<link rel="icon" type="image/png">`). */
export const ICON_PNG = path.resolve(__dirname, '../app/icon.png');
/** Square size in pixels: sharp at 16–32 CSS px on screens up to 2× and in Android's tab grid. */
export const ICON_SIZE = 64;

function svgDataUrl(svg: string): string {
  if (!/^\s*<svg[\s>]/.test(svg)) throw new Error(`${ICON_SOURCE} is not an SVG drawing`);
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Draws the SVG at `size`×`size` on a transparent page and returns the PNG Chromium encodes. */
export async function rasterizeIcon(
  page: Page,
  svg = readFileSync(ICON_SOURCE, 'utf8'),
  size = ICON_SIZE,
): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<!doctype html><style>html,body{margin:0;background:transparent}img{display:block}</style>` +
      `<img width="${size}" height="${size}" alt="">`,
  );
  await page.locator('img').evaluate(async (img: HTMLImageElement, src: string) => {
    img.src = src;
    await img.decode();
  }, svgDataUrl(svg));
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}
