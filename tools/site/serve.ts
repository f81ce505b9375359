/** `npm run serve`: serves a static export like a static host would (PORT, HOST, OUT_DIR). */
import path from 'node:path';

import { serveStatic } from '../../deploy/static-host/serve';
import { runCli } from '../cli';
import { siteAddress } from './local-platform';

runCli(async () => {
  const { host, port } = siteAddress();
  const root = path.resolve(process.env.OUT_DIR ?? 'out');
  await serveStatic({ root, host, port });
  console.log(`Site: http://${host}:${port}/ (serving ${path.relative(process.cwd(), root) || '.'})`);
});
