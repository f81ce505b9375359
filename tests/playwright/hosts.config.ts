/**
 * The host matrix (tests/hosts): the same visitor flows in Chromium, and status and header probes, on
 * every host the site is tested on (support/hosts/matrix.ts): our model, nginx, Apache and Caddy with
 * the generated snippets, Cloudflare Pages' runtime, superstatic (Firebase Hosting) and serve (Vercel)
 * with the generated files, Base44 hosting's SPA-only serving, GitHub Pages and S3. The web
 * servers are those of the e2e suite (the model and the local platform); tests/hosts/global-setup.ts
 * starts the other hosts once, after them. `npm test` runs it as its own step.
 *
 * Two workers: the matrix's flows mostly wait on pages and the network, so two at once nearly halve
 * its time on two cores. Files run whole on one worker (each set of probes, the defaults' servers
 * started once); tests/hosts/flows.spec.ts spreads its flows over both.
 */
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

import { PLAYWRIGHT_CHROMIUM_FLAGS, resolveBrowser } from '../../support/browser';
import { SITE_SERVERS } from '../../support/site-servers';
import { FAILURE_ARTEFACTS, fromRoot, ROOT, suiteLayout } from './suite';

const browser = resolveBrowser();

export default defineConfig({
  ...suiteLayout('hosts'),
  fullyParallel: false,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  globalSetup: path.join(ROOT, 'tests/hosts/global-setup.ts'),
  use: {
    ...FAILURE_ARTEFACTS,
    launchOptions: { executablePath: browser.executablePath, args: PLAYWRIGHT_CHROMIUM_FLAGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: fromRoot(SITE_SERVERS),
});
