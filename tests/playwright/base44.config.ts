import { defineConfig, devices } from '@playwright/test';

import { PLAYWRIGHT_CHROMIUM_FLAGS, resolveBrowser } from '../../support/browser';
import { ON_CI } from '../../support/test-run';
import { suiteLayout } from './suite';

/**
 * The vendor's toolchain serving this site: `base44 dev` (pinned CLI, offline, temporary HOME with a
 * stub login, free ports) from a copy of the repository starts its backend and our `npm run dev`.
 * The spec starts and stops everything itself (free ports, no fixed ones), so it never meets the
 * servers of e2e.config.ts or dev.config.ts.
 */
const browser = resolveBrowser();

export default defineConfig({
  ...suiteLayout('e2e-base44'),
  workers: 1,
  forbidOnly: ON_CI,
  retries: 0,
  // The backend starts in seconds; next dev compiles the page on the first request.
  timeout: 180_000,
  use: { launchOptions: { executablePath: browser.executablePath, args: PLAYWRIGHT_CHROMIUM_FLAGS } },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
});
