import { defineConfig, devices } from '@playwright/test';

import { PLAYWRIGHT_CHROMIUM_FLAGS, resolveBrowser } from '../../support/browser';
import { SITE_SERVERS, SITE_URL } from '../../support/site-servers';
import { ON_CI } from '../../support/test-run';
import { FAILURE_ARTEFACTS, fromRoot, suiteLayout } from './suite';

const browser = resolveBrowser();
export { SITE_URL };

export default defineConfig({
  ...suiteLayout('e2e'),
  fullyParallel: false,
  workers: 1,
  forbidOnly: ON_CI,
  retries: 0,
  timeout: 30_000,
  use: {
    baseURL: SITE_URL,
    ...FAILURE_ARTEFACTS,
    launchOptions: { executablePath: browser.executablePath, args: PLAYWRIGHT_CHROMIUM_FLAGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: fromRoot(SITE_SERVERS),
});
