/**
 * Our model of a static host (deploy/static-host): what `npm start`, `npm run serve` and the other
 * browser suites serve. It applies `out/_headers` and Cloudflare Pages' path rules.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { serveStatic } from '../../deploy/static-host/serve';
import type { RunningHost } from './types';

export async function startModelHost(options: { outDir: string; port?: number }): Promise<RunningHost> {
  const server = await serveStatic({ root: path.resolve(options.outDir), host: '127.0.0.1', port: options.port ?? 0 });
  return {
    name: 'model',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
