/**
 * `npm start`: build the site if needed, then serve it like a static host next to the local
 * platform emulator, so every flow runs on one machine with no account anywhere.
 */
import path from 'node:path';
import type { Server } from 'node:http';
import { ensureBuild } from './build-site';
import { serveStatic } from './serve';

async function main() {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  await ensureBuild({ outDir: 'out' });
  const site: Server = await serveStatic({ root: path.resolve('out'), host, port });
  console.log(`Site:     http://${host}:${port}/`);

  const stop = () => {
    site.closeAllConnections();
    site.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
