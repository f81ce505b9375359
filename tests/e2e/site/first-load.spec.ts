/**
 * The first load of `/` carries only what the first paint and hydration need: the 404 screen and the
 * admin note ship as HTML, the access screens and the platform runtime load when called for, and
 * Next's `<Link>` and `next/dynamic` are not used. Checked in the build output and in a browser; the
 * size itself is `npm run bench`'s figure (docs/PERFORMANCE.md).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { firstLoadScripts } from '../../../build-steps/export/framework-loader';
import { expect, test } from '../fixtures';
import { recordScripts } from '../frame/helpers';

const OUT = path.resolve(__dirname, '../../../out');
const CHUNKS = path.join(OUT, '_next', 'static', 'chunks');

/** Text only these parts contain (`legacyBehavior` is a prop only next/link's code reads). */
const LATER = {
  'the access screens': ['Access Restricted', 'Sign-in required'],
  'the 404 and admin note markup': ['Go Home', 'Admin Note'],
  'next/link': ['legacyBehavior'],
};

/** The page's up-front scripts (`<script src>` and the chunks its loader adds) with their text. */
function firstLoadSources(page: string): { src: string; source: string }[] {
  const html = readFileSync(path.join(OUT, page), 'utf8');
  return firstLoadScripts(html).map((src) => ({
    src,
    source: readFileSync(path.join(OUT, new URL(src, 'http://site.test').pathname), 'utf8'),
  }));
}

test('the first load of / and of the 404 page leaves out what the first paint does not need', () => {
  expect(existsSync(path.join(OUT, 'index.html')), 'run the production build first').toBe(true);
  for (const page of ['index.html', '404.html']) {
    const scripts = firstLoadSources(page);
    // React DOM and the app's own chunks, not only the polyfill.
    expect(scripts.length).toBeGreaterThan(3);
    for (const [part, markers] of Object.entries(LATER)) {
      for (const { src, source } of scripts) {
        for (const marker of markers) expect(source.includes(marker), `${page}: ${src} carries ${part}`).toBe(false);
      }
    }
    // What a visitor sees before hydration is still in the HTML itself.
    expect(readFileSync(path.join(OUT, page), 'utf8')).toContain('Go Home');
  }
  // The access screens are still built, as chunks of their own.
  const chunks = readdirSync(CHUNKS, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  for (const heading of LATER['the access screens']) {
    expect(chunks.some((file) => readFileSync(path.join(CHUNKS, file), 'utf8').includes(heading))).toBe(true);
  }
});

test('a visitor of / gets the platform runtime after hydration, and no access screen it is not shown', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  const settings = page.waitForRequest((request) => request.url().includes('/public-settings/'));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unsere neue Website ist fast startklar');
  // The lazily loaded runtime runs the auth flow, whose first call asks for the app's settings.
  await settings;
  await page.waitForLoadState('networkidle');
  for (const { url, body } of scripts) {
    for (const heading of LATER['the access screens']) expect(body.includes(heading), url).toBe(false);
  }
});
