/**
 * What a visitor downloads for a page, checked on the built exports (`out/`, `out-preview/`): each
 * stylesheet arrives once (a cached file, not inline and again as text in the React payload), the
 * HTML of `/` stays small, the 404 page is kept out of search indexes by its own HTML, and Tailwind's
 * runtime ships with the editor preview only. What these cost in time is `npm run bench`'s figure
 * (docs/PERFORMANCE.md); nothing here is timed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { TAILWIND_RUNTIME_PATH } from '../../../lib/frame/visual-edit/tailwind-runtime';
import { expect, test } from '../fixtures';

const ROOT = path.resolve(__dirname, '../../..');
const OUT = path.join(ROOT, 'out');
const PREVIEW = path.join(ROOT, 'out-preview');
const PAGES = ['index.html', 'ComingSoon.html', '404.html'];
/** The HTML of `/`, gzipped as `npm run bench` measures it (level 9), at most this (issue 36). */
const HTML_GZIP_BUDGET = 6 * 1024;

const read = (file: string) => readFileSync(file, 'utf8');

function stylesheets(root: string): { href: string; css: string }[] {
  const dir = path.join(root, '_next');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.css'))
    .map((file) => ({ href: `/_next/${file.split(path.sep).join('/')}`, css: read(path.join(dir, file)) }));
}

/** The React payload Next.js streams in the page's inline scripts, decoded. */
function payloadOf(html: string): string {
  return Array.from(html.matchAll(/<script>self\.__next_f\.push\((\[[\s\S]*?\])\)<\/script>/g), (match) => {
    const [, text] = JSON.parse(match[1] ?? '[]') as [number, string?];
    return text ?? '';
  }).join('');
}

function count(text: string, needle: string): number {
  return needle === '' ? 0 : text.split(needle).length - 1;
}

/** How often the page carries each stylesheet: links to it, inline copies, copies in its payload. */
function stylesheetCopies(html: string, sheet: { href: string; css: string }) {
  const linked = Array.from(html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)).filter((match) =>
    match[0].includes(`href="${sheet.href}"`),
  ).length;
  const inline = Array.from(html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)).filter(
    (match) => match[1] === sheet.css,
  ).length;
  return { linked, inline, inPayload: count(payloadOf(html), sheet.css) };
}

test.describe('the built pages', () => {
  test.beforeAll(() => {
    expect(existsSync(path.join(OUT, 'index.html')), 'run the production build first').toBe(true);
  });

  test('carry each stylesheet once, never as text in the React payload', () => {
    const sheets = stylesheets(OUT);
    expect(sheets.length).toBeGreaterThan(0);
    for (const page of PAGES) {
      const html = read(path.join(OUT, page));
      const copies = sheets.map((sheet) => ({ href: sheet.href, ...stylesheetCopies(html, sheet) }));
      for (const { href, linked, inline, inPayload } of copies) {
        expect(inPayload, `${page}: ${href} as payload text`).toBe(0);
        expect(linked + inline, `${page}: ${href}`).toBeLessThanOrEqual(1);
      }
      // And the page does use a stylesheet.
      expect(
        copies.some(({ linked, inline }) => linked + inline === 1),
        page,
      ).toBe(true);
    }
  });

  test(`keep the HTML of / at most ${HTML_GZIP_BUDGET / 1024} KB gzip`, () => {
    const html = readFileSync(path.join(OUT, 'index.html'));
    expect(gzipSync(html, { level: 9 }).length).toBeLessThanOrEqual(HTML_GZIP_BUDGET);
  });

  test('keep the 404 page out of search indexes in its own HTML, and only it', () => {
    const robots = (page: string) =>
      Array.from(read(path.join(OUT, page)).matchAll(/<meta name="robots" content="([^"]*)"\/>/g), (match) => match[1]);
    for (const page of ['404.html', '_not-found.html']) expect(robots(page), page).toEqual(['noindex']);
    for (const page of ['index.html', 'ComingSoon.html']) expect(robots(page), page).toEqual(['index, follow']);
  });

  test("ship Tailwind's runtime in the editor preview only", () => {
    const runtime = TAILWIND_RUNTIME_PATH.slice(1);
    expect(existsSync(path.join(OUT, runtime)), `out/${runtime}`).toBe(false);
    expect(read(path.join(OUT, '_headers'))).not.toContain(TAILWIND_RUNTIME_PATH);
    expect(existsSync(path.join(PREVIEW, 'index.html')), 'run the preview build first').toBe(true);
    const shipped = readFileSync(path.join(PREVIEW, runtime));
    expect(shipped.equals(readFileSync(require.resolve('@tailwindcss/browser', { paths: [ROOT] })))).toBe(true);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the copy and the 404 screen are styled from the first paint', async ({ page }) => {
    await page.goto('/');
    const heading = page.getByRole('heading', { level: 1, name: 'Unsere neue Website ist fast startklar' });
    await expect(heading).toBeVisible();
    // Tailwind's preflight (no body margin) and the heading's own classes (font-semibold, text-center).
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    await expect(heading).toHaveCSS('font-weight', '600');
    await expect(heading).toHaveCSS('text-align', 'center');

    await page.goto('/404.html');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    // The large 404 (text-8xl: 6rem).
    await expect(page.getByText('404', { exact: true })).toHaveCSS('font-size', '96px');
  });
});
