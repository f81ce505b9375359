/**
 * The servers every browser suite runs against, as Playwright `webServer` entries: the site exactly
 * as `npm start` serves it (static export under the production headers, next to the local platform)
 * and the editor preview build for the frame tests.
 */
import type { PlaywrightTestConfig } from '@playwright/test';

import { PREVIEW_ORIGIN } from './editor-preview';
import { MATRIX_ORIGINS } from './hosts/matrix';

export const SITE_URL = 'http://127.0.0.1:3000';

export const SITE_SERVERS: NonNullable<PlaywrightTestConfig['webServer']> = [
  // The same server `npm start` runs: the static export plus the local platform.
  {
    command: 'npx tsx tools/site/start.ts',
    url: `${SITE_URL}/`,
    // The editor preview and every host of the matrix (support/hosts/matrix.ts, the header-less hosts
    // of support/hosts/test-hosts.ts among them) call the same platform.
    env: { EMULATOR_EXTRA_SITE_ORIGINS: [PREVIEW_ORIGIN, ...MATRIX_ORIGINS].join(',') },
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
];
