/** `npm run serve`: serves a static export like a static host would (PORT, HOST, OUT_DIR). */
import path from 'node:path';

import { serveStatic } from '../../deploy/static-host/serve';
import { runCli } from '../cli';

runCli(async () => {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  const root = path.resolve(process.env.OUT_DIR ?? 'out');
  await serveStatic({ root, host, port });
  console.log(`Site: http://${host}:${port}/ (serving ${path.relative(process.cwd(), root) || '.'})`);
});
