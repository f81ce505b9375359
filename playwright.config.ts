import { defineConfig, devices } from '@playwright/test';

import { CHROMIUM_FLAGS, resolveBrowser } from './support/browser';
import { PREVIEW_ORIGIN } from './support/editor-preview';

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
  webServer: [
    // The same server `npm start` runs: the static export plus the local platform.
    {
      command: 'npx tsx tools/site/start.ts',
      url: `${SITE_URL}/`,
      env: { EMULATOR_EXTRA_SITE_ORIGINS: PREVIEW_ORIGIN },
      reuseExistingServer: false,
      timeout: 300_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    // The editor preview build (source annotations on), framed by the stand-in editor in tests/e2e/frame.
    {
      command: 'npx tsx tests/e2e/fixtures/editor/serve-preview.ts',
      url: `${PREVIEW_ORIGIN}/`,
      reuseExistingServer: false,
      timeout: 300_000,
    },
  ],
});
