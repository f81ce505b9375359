import { defineConfig, devices } from '@playwright/test';

import { CHROMIUM_FLAGS, resolveBrowser } from './support/browser';
import { SITE_SERVERS, SITE_URL } from './support/site-servers';
import { ON_CI } from './support/test-run';

const browser = resolveBrowser();
export { SITE_URL };

export default defineConfig({
  testDir: './tests/e2e',
  outputDir: './test-results/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: ON_CI,
  retries: 0,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: SITE_URL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: browser.executablePath, args: CHROMIUM_FLAGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: SITE_SERVERS,
});
