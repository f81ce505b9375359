import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';

import {
  browserExecutable,
  PLAYWRIGHT_CHROMIUM_FLAGS,
  PLAYWRIGHT_DISABLED_FEATURES,
  PUPPETEER_CHROMIUM_FLAGS,
  UNUSED_BROWSER_UI_FEATURES,
} from '@/support/browser';

/**
 * The test browsers' flags (support/browser.ts) with the real Chromium and the real launchers: the
 * address bar's popup is not preloaded, and what Playwright turns off stays off although our
 * `--disable-features` replaces its own (Chromium reads only the last one).
 */

jest.setTimeout(60_000);

const OMNIBOX_POPUP = 'chrome://omnibox-popup.top-chrome/';
// `Target.getTargets` with `filter: [{}]` lists every target, the browser's own UI ('browser_ui') included.

/** The features each `--disable-features` of a command line names, in order. */
function disabledFeatureLists(commandLine: readonly string[]): string[][] {
  return commandLine
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
}

describe('Chromium launched by Playwright', () => {
  it("disables the popup's features and keeps every feature Playwright disables itself disabled", async () => {
    const server = await chromium.launchServer({
      executablePath: browserExecutable(),
      args: PLAYWRIGHT_CHROMIUM_FLAGS,
    });
    try {
      const lists = disabledFeatureLists(server.process().spawnargs);
      const [playwrightsOwn = [], ...ours] = lists;
      const effective = ours.at(-1) ?? [];
      expect(ours.length).toBeGreaterThanOrEqual(1);
      // When a Playwright update changes its list, PLAYWRIGHT_DISABLED_FEATURES must follow it.
      expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...playwrightsOwn].sort());
      expect(effective).toEqual(expect.arrayContaining([...playwrightsOwn, ...UNUSED_BROWSER_UI_FEATURES]));
    } finally {
      await server.close();
    }
  });

  it('opens a context and page without the address bar popup', async () => {
    const browser = await chromium.launch({ executablePath: browserExecutable(), args: PLAYWRIGHT_CHROMIUM_FLAGS });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto('data:text/html,<p>loaded</p>');
      await expect(page.locator('p').textContent()).resolves.toBe('loaded');
      const session = await browser.newBrowserCDPSession();
      const { targetInfos } = await session.send('Target.getTargets', { filter: [{}] });
      expect(targetInfos.some((target) => target.type === 'page')).toBe(true);
      expect(targetInfos.filter((target) => target.url.startsWith(OMNIBOX_POPUP))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('Chromium launched by puppeteer (the cross-engine suite)', () => {
  it('opens a context and page without the address bar popup, puppeteer keeping its own features', async () => {
    const browser = await puppeteer.launch({
      browser: 'chrome',
      executablePath: browserExecutable(),
      headless: true,
      args: PUPPETEER_CHROMIUM_FLAGS,
    });
    try {
      const lists = disabledFeatureLists(browser.process()?.spawnargs ?? []);
      // puppeteer merges ours into its own single list.
      expect(lists).toHaveLength(1);
      expect(lists[0]).toEqual(expect.arrayContaining([...UNUSED_BROWSER_UI_FEATURES, 'MediaRouter']));
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.goto('data:text/html,<p>loaded</p>');
      const session = await browser.target().createCDPSession();
      const { targetInfos } = await session.send('Target.getTargets', { filter: [{}] });
      expect(targetInfos.some((target) => target.type === 'page')).toBe(true);
      expect(targetInfos.filter((target) => target.url.startsWith(OMNIBOX_POPUP))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
