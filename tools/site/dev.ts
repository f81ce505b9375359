/**
 * `npm run dev`: the site with hot reload (`next dev`) next to the local platform emulator, as
 * `npm start` serves the static build next to it, so the shell can sign in and load data from the
 * first request instead of being refused until someone starts the emulator by hand.
 *
 * Under `npx base44 dev` (the vendor CLI runs this as the site's `serveCommand`), VITE_BASE44_APP_ID
 * and VITE_BASE44_APP_BASE_URL name the vendor's local backend: the site talks to it and no emulator
 * starts, so none of its ports is taken (support/base44-cli/site-env.ts).
 *
 * Env: PORT/HOST (site, default 127.0.0.1:3000; localhost:3000 for a local vendor backend, which only
 * lets localhost pages call it), EMULATOR_PORT (default 3001), EMULATOR_DATA_DIR, EMULATOR_LATENCY_MS,
 * EMULATOR_EXTRA_SITE_ORIGINS (as for `npm start`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { copyVendorFiles } from '../../build-steps/site/copy-vendor';
import type { RunningEmulator } from '../../emulator/core/types';
import { readBuildEnv } from '../../lib/config/env';
import { vendorSiteEnv, vendorSiteHost, type VendorSiteEnv } from '../../support/base44-cli/site-env';
import { runCli } from '../cli';
import { hostSetting, siteAddress, startLocalPlatform } from './local-platform';

/** The platform the site talks to: the vendor backend `base44 dev` named, else our emulator. */
async function startPlatform(
  vendor: VendorSiteEnv | null,
  host: string,
  port: number,
): Promise<{ siteEnv: Record<string, string>; emulator: RunningEmulator | null }> {
  if (vendor) {
    console.log(`Platform: ${vendor.backendUrl} (app ${vendor.appId}, from base44 dev); no local emulator started.`);
    return { siteEnv: vendor.nextPublic, emulator: null };
  }
  const emulator = await startLocalPlatform(host, port);
  // The site's build-time settings point at this emulator, wherever EMULATOR_PORT put it.
  const serverUrl = readBuildEnv().serverUrl ?? emulator.url;
  return { siteEnv: { NEXT_PUBLIC_PLATFORM_SERVER_URL: serverUrl }, emulator };
}

async function main() {
  const vendor = vendorSiteEnv(process.env);
  const address = siteAddress();
  const host = vendor ? vendorSiteHost(vendor, hostSetting()) : address.host;
  const port = address.port;
  // `next dev` serves public/: edit mode's Tailwind runtime comes from there (exports leave it out).
  copyVendorFiles();

  const { siteEnv, emulator } = await startPlatform(vendor, host, port);
  if (!emulator) console.log(`Site: http://${host}:${port}/`);

  const next = spawn(
    process.execPath,
    [require.resolve('next/dist/bin/next'), 'dev', '--hostname', host, '--port', String(port)],
    { cwd: path.resolve(__dirname, '../..'), stdio: 'inherit', env: { ...process.env, ...siteEnv } },
  );

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (next.exitCode === null) next.kill('SIGTERM');
    (emulator ? emulator.close() : Promise.resolve()).finally(() => process.exit(code));
  };
  next.on('exit', (code) => stop(code ?? 0));
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}

runCli(main);
