/**
 * Cloudflare Pages' real runtime: `wrangler pages dev <outDir>` (wrangler 4.164 on Node 22, Pages'
 * own asset server on workerd), offline. It reads `out/_headers` as Pages does and applies Pages'
 * HTML handling (308s to each page's one address, 404.html with status 404). The runtime comes from
 * the pinned cache that cloudflare/install.mjs fills on first use; when it cannot be installed, this
 * throws with the reason, so the matrix fails rather than skipping the host.
 *
 * Everything wrangler writes (its `.wrangler/` state, logs under HOME) goes to a temporary folder.
 * Known noise, not errors: it warns that `Request.cf` cannot be fetched offline, and its esbuild
 * child prints a Go stack trace when stopped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '../processes';
import { processHost } from './process-host';
import type { RunningHost } from './types';

const INSTALLER = path.join(__dirname, 'cloudflare', 'install.mjs');

interface CloudflareRuntime {
  node: string;
  wrangler: string;
}

/**
 * Node 22 and wrangler from the cache, installed first when missing (this needs the npm registry
 * once; run it outside a network namespace). Throws with the installer's reason when it fails.
 */
export function cloudflareRuntime(): CloudflareRuntime {
  const result = spawnSync(process.execPath, [INSTALLER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) {
    throw new Error('The Cloudflare host cannot run: Node 22 and wrangler could not be installed (see above).');
  }
  return JSON.parse(result.stdout) as CloudflareRuntime;
}

export async function startCloudflareHost(options: { outDir: string; port?: number }): Promise<RunningHost> {
  const runtime = cloudflareRuntime();
  const port = options.port || (await freePort());
  const scratch = mkdtempSync(path.join(tmpdir(), 'cloudflare-host-'));
  const args = [
    runtime.wrangler,
    'pages',
    'dev',
    path.resolve(options.outDir),
    ...['--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(await freePort())],
    ...['--persist-to', path.join(scratch, 'state'), '--show-interactive-dev-session=false', '--log-level=warn'],
  ];
  const child = spawn(runtime.node, args, {
    cwd: scratch,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOME: scratch, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return processHost({
    name: 'cloudflare',
    child,
    port,
    scratch,
    timeoutMs: 60_000,
    describe: () => output.join('').slice(-4_000),
  });
}
