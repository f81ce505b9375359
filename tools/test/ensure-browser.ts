import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { BROWSER_MISSING_HELP, findBrowser } from '../../support/browser';

function canInstallWithApt(): boolean {
  return process.platform === 'linux' && existsSync('/etc/debian_version') && process.getuid?.() === 0;
}

/**
 * Finds a browser for the e2e tests; on Debian as root, installs Debian's chromium when none is
 * found (Playwright's own download cannot work on machines without general internet access).
 * Otherwise says exactly what to install.
 */
export async function ensureBrowser(): Promise<boolean> {
  console.log('\n▶ browser');
  let browser = findBrowser();
  if (!browser && canInstallWithApt()) {
    console.log("No Chromium found; installing Debian's chromium package with apt-get ...");
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    const install =
      update.status === 0 ? spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit' }) : update;
    if (install.status !== 0) console.error('apt-get could not install chromium.');
    browser = findBrowser();
  }
  if (!browser) {
    console.error(BROWSER_MISSING_HELP);
    return false;
  }
  console.log(`Using ${browser.executablePath ?? "Playwright's own Chromium"} (${browser.source})`);
  return true;
}
