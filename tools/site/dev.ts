/**
 * `npm run dev`: the site with hot reload (`next dev`) next to the local platform emulator, as
 * `npm start` serves the static build next to it, so the shell can sign in and load data from the
 * first request instead of being refused until someone starts the emulator by hand.
 *
 * Env: PORT/HOST (site, default 127.0.0.1:3000), EMULATOR_PORT (default 3001), EMULATOR_DATA_DIR,
 * EMULATOR_LATENCY_MS, EMULATOR_EXTRA_SITE_ORIGINS (as for `npm start`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { copyVendorFiles } from '../../build/site/copy-vendor';
import { runCli } from '../cli';
import { numberFromEnv, startLocalPlatform } from './local-platform';

async function main() {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = numberFromEnv('PORT', 3000);
  copyVendorFiles();

  const emulator = await startLocalPlatform(host, port);

  // The site's build-time settings point at this emulator, wherever EMULATOR_PORT put it.
  const next = spawn(
    process.execPath,
    [require.resolve('next/dist/bin/next'), 'dev', '--hostname', host, '--port', String(port)],
    {
      cwd: path.resolve(__dirname, '../..'),
      stdio: 'inherit',
      env: {
        ...process.env,
        NEXT_PUBLIC_PLATFORM_SERVER_URL: process.env.NEXT_PUBLIC_PLATFORM_SERVER_URL ?? emulator.url,
      },
    },
  );

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (next.exitCode === null) next.kill('SIGTERM');
    emulator.close().finally(() => process.exit(code));
  };
  next.on('exit', (code) => stop(code ?? 0));
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}

runCli(main);
