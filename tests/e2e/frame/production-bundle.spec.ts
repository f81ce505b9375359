/**
 * Visitors of the production site download none of the editor code, and its HTML carries no source
 * annotations. Checked twice: in the build output and in the browser's network log.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { firstLoadScripts } from '../../../build-steps/export/framework-loader';
import { expect, test } from '../fixtures';
import { containsBridgeCode, recordScripts } from './helpers';

const OUT = path.resolve(__dirname, '../../../out');

/** The files `out/index.html` loads up front (its script elements and the chunks its loader adds). */
function initialScripts(): string[] {
  return firstLoadScripts(readFileSync(path.join(OUT, 'index.html'), 'utf8'));
}

test('the production build keeps the bridge in a lazy chunk that / does not load', () => {
  expect(existsSync(path.join(OUT, 'index.html')), 'run the production build first').toBe(true);
  const html = readFileSync(path.join(OUT, 'index.html'), 'utf8');
  expect(html).not.toContain('data-source-location');
  expect(html).not.toContain('data-dynamic-content');

  const scripts = initialScripts();
  // React DOM and the app's own chunks, not only the polyfill.
  expect(scripts.length).toBeGreaterThan(3);
  for (const src of scripts) {
    const source = readFileSync(path.join(OUT, new URL(src, 'http://site.test').pathname), 'utf8');
    expect(containsBridgeCode(source), `${src} must not contain editor code`).toBe(false);
  }

  // The bridge is in the build (framed pages fetch it), just not in what / loads up front.
  const chunks = path.join(OUT, '_next', 'static', 'chunks');
  const lazy = readdirSync(chunks, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .filter((file) => containsBridgeCode(readFileSync(path.join(chunks, file), 'utf8')));
  expect(lazy.length).toBeGreaterThan(0);
  for (const file of lazy) expect(scripts.some((src) => src.endsWith(file))).toBe(false);
});

test('a visitor of / downloads no bridge, agent or Tailwind runtime code', async ({ page }) => {
  const scripts = recordScripts(page);
  await page.goto('/');
  await expect(page.locator('h1')).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    expect(containsBridgeCode(script.body), `${script.url} must not contain editor code`).toBe(false);
    expect(script.url).not.toContain('tailwindcss-browser');
  }
  await expect(page.locator('[data-source-location]')).toHaveCount(0);
});

test('the production stylesheet has no class that exists only in test fixtures', () => {
  expect(existsSync(path.join(OUT, 'index.html')), 'run the production build first').toBe(true);
  const html = readFileSync(path.join(OUT, 'index.html'), 'utf8');
  const inline = Array.from(html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g), (match) => match[1] ?? '');
  const files = readdirSync(path.join(OUT, '_next'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.css'))
    .map((file) => readFileSync(path.join(OUT, '_next', file), 'utf8'));
  const css = [...inline, ...files].join('\n');
  expect(css).toContain('tabular-nums');
  // From tests/e2e/fixtures/editor and the editor specs, as Tailwind escapes them in selectors.
  for (const fixtureOnly of ['bg-\\[rgb\\(1\\,2\\,3\\)\\]', 'decoration-\\[rgb\\(90\\,12\\,34\\)\\]']) {
    expect(css).not.toContain(fixtureOnly);
  }
});
