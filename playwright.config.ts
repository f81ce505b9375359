import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, resolveBrowser } from './tests/support/browser';

const browser = resolveBrowser();
export const SITE_URL = 'http://127.0.0.1:3000';

export default defineConfig({
  testDir: './tests/e2e',
  outputDir: './test-results/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: SITE_URL,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: browser.executablePath, args: CHROMIUM_FLAGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  // The same server `npm start` runs: the static export plus the local platform.
  webServer: {
    command: 'npx tsx scripts/start.ts',
    url: `${SITE_URL}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
