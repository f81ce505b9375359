import { defineConfig, devices } from '@playwright/test';

import { PLAYWRIGHT_CHROMIUM_FLAGS, resolveBrowser } from '../../support/browser';
import { ON_CI } from '../../support/test-run';
import { fromRoot, suiteLayout } from './suite';

/**
 * The development loop in a real browser: `npm run dev` (next dev + the local platform), on its own
 * ports so it never meets the production servers of e2e.config.ts.
 */
const browser = resolveBrowser();
const PORT = 3200;
const EMULATOR_PORT = 3201;

export default defineConfig({
  ...suiteLayout('e2e-dev'),
  workers: 1,
  forbidOnly: ON_CI,
  retries: 0,
  // The first request compiles the page on demand.
  timeout: 120_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: browser.executablePath, args: PLAYWRIGHT_CHROMIUM_FLAGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: fromRoot({
    command: 'npx tsx tools/site/dev.ts',
    url: `http://127.0.0.1:${PORT}/`,
    env: { PORT: String(PORT), EMULATOR_PORT: String(EMULATOR_PORT), NEXT_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
  }),
});
