/**
 * Playwright Test is only the runner here (projects, fixtures, reports): the browsers are the stock
 * ones of each engine, driven through tests/cross-engine/driver. Every test gets a fresh browser
 * `session` and ends by checking that the engine reported no console error and no CSP violation.
 */
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import type { Browser as PuppeteerBrowser } from 'puppeteer-core';

import { findWebKit, type Engine } from '../../support/engines';
import { startHeaderLessHosts, type HeaderLessHostName } from '../../support/hosts/test-hosts';
import type { RunningHost } from '../../support/hosts/types';
import { launchPuppeteerBrowser, openPuppeteerSession } from './driver/puppeteer-session';
import type { EngineSession } from './driver/session';
import { openWebKitSession, startWebKitHost, type WebKitHost } from './driver/webkit-session';

/**
 * Chromium asks for /favicon.ico on pages that name no icon (the stand-in editor); the site names its
 * icon, so a 404 there is the browser's own request, not the site's.
 */
const BROWSER_FAVICON = /status of 404 .* @ http:\/\/127\.0\.0\.1:\d+\/favicon\.ico$/;

/**
 * Firefox ESR 140 (Debian's 140.12) reports, in about one page load in three that frames a
 * cross-origin page, three uncaught `Permission denied to access property "length"` errors with no
 * stack and no address, whenever a BiDi preload script is installed (the session's
 * `evaluateOnNewDocument`, which records CSP violations from a document's start). Traced in scratch
 * runs of raw puppeteer: a parent page holding only an iframe of a script-less page on another port
 * gave them in 3 or 4 loads of 10 with any preload script (a function, with or without arguments,
 * or a one-line string) and in none of 10 without one. Firefox's, not the site's: tolerated in
 * Firefox only, and only this exact text.
 */
const FIREFOX_CROSS_ORIGIN_NOISE = /^Error: Permission denied to access property "length"$/;

interface WorkerFixtures {
  engine: Engine;
  engineHost: { puppeteer?: PuppeteerBrowser; webkit?: WebKitHost };
  /** The header-less hosts (support/hosts/test-hosts.ts), started for the tests that use them. */
  hosts: Record<HeaderLessHostName, RunningHost>;
}

interface TestFixtures {
  session: EngineSession;
  /** Console errors a test expects (see `expectedStatus`); null: none. */
  allowedProblems: RegExp | null;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  engine: ['chromium', { option: true, scope: 'worker' }],
  engineHost: [
    async ({ engine }, use) => {
      if (engine === 'webkit') {
        const tools = findWebKit();
        if (!tools) throw new Error('WebKitWebDriver, MiniBrowser or Xvfb missing');
        const host = await startWebKitHost(tools);
        await use({ webkit: host });
        await host.stop();
        return;
      }
      const browser = await launchPuppeteerBrowser(engine);
      await use({ puppeteer: browser });
      await browser.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  hosts: [
    async ({}, use) => {
      const hosts = await startHeaderLessHosts(path.resolve(__dirname, '../..'));
      await use(hosts);
      await Promise.all(Object.values(hosts).map((host) => host.stop()));
    },
    { scope: 'worker' },
  ],
  allowedProblems: [null, { option: true }],
  session: async ({ engine, engineHost, allowedProblems }, provide) => {
    const tools = findWebKit();
    const session =
      engine === 'webkit' && engineHost.webkit && tools
        ? await openWebKitSession(engineHost.webkit, tools)
        : await openPuppeteerSession(engineHost.puppeteer as PuppeteerBrowser, engine as 'chromium' | 'firefox');
    try {
      await provide(session);
      const { messages } = await session.problems();
      const unexpected = messages.filter(
        (message) =>
          !allowedProblems?.test(message) &&
          !BROWSER_FAVICON.test(message) &&
          !(engine === 'firefox' && FIREFOX_CROSS_ORIGIN_NOISE.test(message)),
      );
      expect(unexpected, `console errors and CSP violations in ${engine}`).toEqual([]);
    } finally {
      await session.close();
    }
  },
});

export { expect };
export { until } from './driver/aim';

/**
 * The console line an engine prints for a response with an error status the test expects: a missing
 * page's own 404 document, the platform's 401/403 for a visitor it refuses. Chromium prints them.
 */
export function expectedStatus(...codes: number[]): RegExp {
  return new RegExp(`status of (${codes.join('|')}) `);
}
