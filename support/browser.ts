/**
 * The one place that decides which Chromium the tests, Lighthouse and screenshots use.
 *
 * Order: CHROME_PATH, then Playwright's own downloaded browser (for people who ran
 * `npx playwright install` on a machine that can), then a system Chromium/Chrome on PATH. This
 * machine family cannot download Playwright's browsers, so Debian's `chromium` is the usual answer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Flags that keep a headless Chromium quiet on a machine with no network but loopback. Launchers
 * take them through `chromiumFlagsAfter` (below), which adds the features turned off.
 */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Parts of the browser's own window a test browser never shows. Chromium's headless mode is the
 * whole browser, and every window preloads the address bar's suggestion popup, a WebUI app
 * (`chrome://omnibox-popup.top-chrome/`, two documents) in a renderer of its own. Playwright and
 * puppeteer open a window for each browser context, so each test paid for it: about 1.2 s of CPU
 * per window on this 2-core machine (a Chromium trace: the popup's module evaluation, custom
 * elements and styles), more than loading our page. Eight contexts loading `/` used 22.5 s of CPU
 * with it and 11.0 s without (2026-11-28, Chromium 156).
 */
export const UNUSED_BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

/**
 * The features Playwright 1.65.1 turns off itself (its `chromiumSwitches`). Chromium reads only the
 * last `--disable-features`, and Playwright puts ours after its own, so ours must carry its list or
 * would turn them back on (third-party storage partitioning, paint holding, ...).
 * tests/integration/support/browser-flags.test.ts fails when a Playwright update changes the list.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * Our flags for a launcher that puts them after its own `--disable-features=<list>`: Chromium reads
 * only the last one, so it carries the launcher's list and ours.
 */
export function chromiumFlagsAfter(launcherDisabledFeatures: readonly string[]): string[] {
  const features = [...new Set([...launcherDisabledFeatures, ...UNUSED_BROWSER_UI_FEATURES])];
  return [...CHROMIUM_FLAGS, `--disable-features=${features.join(',')}`];
}

/** Flags for a Chromium that Playwright launches (the Playwright suites, the integration tests). */
export const PLAYWRIGHT_CHROMIUM_FLAGS = chromiumFlagsAfter(PLAYWRIGHT_DISABLED_FEATURES);

/** Flags for a Chromium that puppeteer launches: puppeteer merges ours into its own list itself. */
export const PUPPETEER_CHROMIUM_FLAGS = chromiumFlagsAfter([]);

export interface ResolvedBrowser {
  /** Absolute path of the executable; undefined = Playwright's bundled browser. */
  executablePath: string | undefined;
  source: 'CHROME_PATH' | 'playwright' | 'system';
}

const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

function onPath(name: string): string | null {
  try {
    const found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    return found || null;
  } catch {
    return null;
  }
}

function playwrightsOwnBrowser(): string | null {
  try {
    // Required lazily: playwright-core is heavy and not needed when CHROME_PATH is set.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    const file = chromium.executablePath();
    return file && existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

export const BROWSER_MISSING_HELP = [
  'No Chromium found for the browser tests. Do one of:',
  '  - set CHROME_PATH to a Chromium or Chrome executable;',
  '  - on Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium;',
  '  - where downloads are allowed: npx playwright install chromium.',
].join('\n');

export function findBrowser(): ResolvedBrowser | null {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH points to a missing file: ${fromEnv}`);
    return { executablePath: fromEnv, source: 'CHROME_PATH' };
  }
  const own = playwrightsOwnBrowser();
  if (own) return { executablePath: undefined, source: 'playwright' };
  for (const name of SYSTEM_BROWSERS) {
    const found = onPath(name);
    if (found) return { executablePath: found, source: 'system' };
  }
  return null;
}

export function resolveBrowser(): ResolvedBrowser {
  const browser = findBrowser();
  if (!browser) throw new Error(BROWSER_MISSING_HELP);
  return browser;
}

/** An executable path for tools that need one (Lighthouse's CHROME_PATH). */
export function browserExecutable(): string {
  const browser = resolveBrowser();
  if (browser.executablePath) return browser.executablePath;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  return chromium.executablePath();
}
