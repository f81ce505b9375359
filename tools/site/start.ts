/**
 * `npm start`: build the site if needed, then serve it like a static host next to the local
 * platform emulator, so every flow runs on one machine with no account anywhere.
 *
 * Env: PORT/HOST (site, default 127.0.0.1:3000), EMULATOR_PORT (default 3001), EMULATOR_DATA_DIR
 * (persist the platform's data; default: in memory), EMULATOR_LATENCY_MS (slow platform),
 * EMULATOR_EXTRA_SITE_ORIGINS (comma-separated origins that may also call it and log in).
 */
import path from 'node:path';

import { ensureBuild } from '../../build-steps/site/build-site';
import { serveStatic } from '../../deploy/static-host/serve';
import { runCli } from '../cli';
import { siteAddress, startLocalPlatform } from './local-platform';

async function main() {
  const { host, port } = siteAddress();

  await ensureBuild({ outDir: 'out' });
  const emulator = await startLocalPlatform(host, port);
  const site = await serveStatic({ root: path.resolve('out'), host, port });
  console.log(`\nSite: http://${host}:${port}/ (talks to the emulator above)`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    site.closeAllConnections();
    site.close();
    emulator.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

runCli(main);
