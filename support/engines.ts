/**
 * The stock browsers of the cross-engine suite (tests/cross-engine) and where they come from: Debian's
 * `firefox-esr` (driven over WebDriver BiDi, which Firefox speaks itself), WebKitGTK's `MiniBrowser`
 * through `WebKitWebDriver` (package webkit2gtk-driver) on an Xvfb display, and the Chromium of
 * support/browser.ts. Nothing here downloads a browser or a driver.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

import { findBrowser } from './browser';

export const ENGINES = ['chromium', 'firefox', 'webkit'] as const;
export type Engine = (typeof ENGINES)[number];

export function isEngine(name: string): name is Engine {
  return (ENGINES as readonly string[]).includes(name);
}

/** Splits `--engine X` / `--engine=X` from the arguments meant for Playwright. */
export function parseEngineArgs(argv: string[]): { engines: Engine[]; rest: string[] } {
  const engines: Engine[] = [];
  const rest: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const value = arg === '--engine' ? argv[++index] : arg.startsWith('--engine=') ? arg.slice(9) : null;
    if (value === null) {
      rest.push(arg);
      continue;
    }
    if (value === undefined || !isEngine(value)) {
      throw new Error(`--engine takes one of ${ENGINES.join(', ')}; got ${value ?? 'nothing'}`);
    }
    engines.push(value);
  }
  return { engines: engines.length > 0 ? engines : [...ENGINES], rest };
}

/** The Debian packages that provide each engine (Chromium's is installed by ensureBrowser). */
export const ENGINE_PACKAGES: Record<Engine, string[]> = {
  chromium: ['chromium'],
  firefox: ['firefox-esr'],
  webkit: ['webkit2gtk-driver', 'xvfb'],
};

export interface WebKitTools {
  driver: string;
  miniBrowser: string;
  xvfb: string;
}

function onPath(name: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export function findFirefox(): string | null {
  const fromEnv = process.env.FIREFOX_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return onPath('firefox-esr') ?? onPath('firefox');
}

/** MiniBrowser lives in the multiarch library folder of the newest WebKitGTK API version installed. */
function findMiniBrowser(): string | null {
  const fromEnv = process.env.WEBKIT_MINIBROWSER_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  for (const lib of ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib', '/usr/libexec']) {
    if (!existsSync(lib)) continue;
    const versions = readdirSync(lib)
      .filter((name) => /^webkit2?gtk-[\d.]+$/.test(name))
      .sort()
      .reverse();
    for (const version of versions) {
      const candidate = `${lib}/${version}/MiniBrowser`;
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

export function findWebKit(): WebKitTools | null {
  const driver = onPath('WebKitWebDriver');
  const miniBrowser = findMiniBrowser();
  const xvfb = onPath('Xvfb');
  return driver && miniBrowser && xvfb ? { driver, miniBrowser, xvfb } : null;
}

/** True when the engine can be started on this machine. */
export function engineAvailable(engine: Engine): boolean {
  if (engine === 'chromium') return findBrowser() !== null;
  if (engine === 'firefox') return findFirefox() !== null;
  return findWebKit() !== null;
}

export function engineMissingHelp(engine: Engine): string {
  return [
    `The cross-engine suite cannot start ${engine} on this machine. Do one of:`,
    `  - on Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y ${ENGINE_PACKAGES[engine].join(' ')};`,
    engine === 'firefox'
      ? '  - set FIREFOX_PATH to a Firefox executable (any release since 129 speaks WebDriver BiDi);'
      : engine === 'webkit'
        ? '  - put WebKitWebDriver and Xvfb on PATH and set WEBKIT_MINIBROWSER_PATH to MiniBrowser;'
        : '  - set CHROME_PATH to a Chromium or Chrome executable;',
    `  - or leave ${engine} out: npm run test:engines -- --engine <another engine>.`,
  ].join('\n');
}
