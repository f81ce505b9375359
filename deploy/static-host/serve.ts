/**
 * Serves the static export like a static host would. Usage: `npm run serve` (PORT, HOST, OUT_DIR).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { createStaticServer } from './server';

export async function serveStatic(options: { root: string; host: string; port: number }) {
  if (!existsSync(path.join(options.root, 'index.html'))) {
    throw new Error(`No static export in ${options.root}: run \`npm run build\` (or \`npm run build:local\`) first.`);
  }
  const server = createStaticServer({ root: options.root });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
