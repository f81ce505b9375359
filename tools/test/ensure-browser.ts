import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { BROWSER_MISSING_HELP, findBrowser } from '../../support/browser';
import { ENGINE_PACKAGES, engineAvailable, engineMissingHelp, type Engine } from '../../support/engines';
import { DEBIAN_SERVERS, findServer, serverMissingHelp, type DebianServerName } from '../../support/hosts/programs';

function canInstallWithApt(): boolean {
  return process.platform === 'linux' && existsSync('/etc/debian_version') && process.getuid?.() === 0;
}

/** On Debian as root, installs Debian's `packages` (one apt-get run); says so when it cannot. */
function installWithApt(packages: string[]): void {
  if (packages.length === 0 || !canInstallWithApt()) return;
  console.log(`Installing Debian's ${packages.join(', ')} with apt-get ...`);
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  const install =
    update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit' }) : update;
  if (install.status !== 0) console.error(`apt-get could not install ${packages.join(', ')}.`);
}

/**
 * Finds a browser for the e2e tests; on Debian as root, installs Debian's chromium when none is
 * found (Playwright's own download cannot work on machines without general internet access).
 * Otherwise says exactly what to install.
 */
export async function ensureBrowser(): Promise<boolean> {
  console.log('\n▶ browser');
  let browser = findBrowser();
  if (!browser) {
    installWithApt(['chromium']);
    browser = findBrowser();
  }
  if (!browser) {
    console.error(BROWSER_MISSING_HELP);
    return false;
  }
  console.log(`Using ${browser.executablePath ?? "Playwright's own Chromium"} (${browser.source})`);
  return true;
}

/**
 * Makes sure the engines of the cross-engine suite can start: on Debian as root, installs the Debian
 * packages of any that cannot (firefox-esr; webkit2gtk-driver and xvfb), as for Chromium above.
 * Returns the engines that can run; prints what to install for the others.
 */
export function ensureEngines(wanted: readonly Engine[]): Engine[] {
  console.log(`\n▶ browser engines (${wanted.join(', ')})`);
  const missing = wanted.filter((engine) => !engineAvailable(engine));
  installWithApt([...new Set(missing.flatMap((engine) => ENGINE_PACKAGES[engine]))]);
  const ready = wanted.filter((engine) => engineAvailable(engine));
  for (const engine of wanted) {
    if (!ready.includes(engine)) console.error(engineMissingHelp(engine));
  }
  console.log(`Engines ready: ${ready.join(', ') || 'none'}`);
  return ready;
}

/**
 * Makes sure the host matrix's servers from Debian (nginx, Apache, Caddy) can start: on Debian as
 * root, installs the packages of those that are missing (one apt-get run), as for the browsers above.
 * False, with what to install, when one cannot.
 */
export function ensureServers(): boolean {
  const names = Object.keys(DEBIAN_SERVERS) as DebianServerName[];
  console.log(`\n▶ ${names.join(', ')} (host matrix)`);
  installWithApt(names.filter((name) => !findServer(name)).map((name) => DEBIAN_SERVERS[name].debianPackage));
  let ready = true;
  for (const name of names) {
    const found = findServer(name);
    if (found) console.log(`Using ${found}`);
    else {
      console.error(serverMissingHelp(name));
      ready = false;
    }
  }
  return ready;
}
