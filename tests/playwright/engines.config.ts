/**
 * The cross-engine suite (tests/cross-engine): the site in stock Chromium, Firefox ESR and WebKitGTK,
 * driven through puppeteer-core and WebKitWebDriver. Playwright Test is only the runner and starts
 * the same servers as the Chromium e2e suite; it never launches or downloads a browser of its own.
 * Run it with `npm run test:engines` (`-- --engine firefox` for one engine).
 */
import { defineConfig } from '@playwright/test';

import { ENGINES, type Engine } from '../../support/engines';
import { SITE_SERVERS } from '../../support/site-servers';
import { ON_CI } from '../../support/test-run';
import { fromRoot, suiteLayout } from './suite';

export default defineConfig<object, { engine: Engine }>({
  ...suiteLayout('cross-engine'),
  fullyParallel: false,
  workers: 1,
  forbidOnly: ON_CI,
  retries: 0,
  timeout: 60_000,
  projects: ENGINES.map((engine) => ({ name: engine, use: { engine } })),
  webServer: fromRoot(SITE_SERVERS),
});
