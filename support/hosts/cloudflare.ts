/**
 * Cloudflare Pages' real runtime: `wrangler pages dev <outDir>` (wrangler 4.164 on Node 22, Pages'
 * own asset server on workerd), offline. It reads `out/_headers` as Pages does and applies Pages'
 * HTML handling (308s to each page's one address, 404.html with status 404). The runtime comes from
 * the pinned cache of runtimes.ts.
 *
 * Everything wrangler writes (its `.wrangler/` state, logs under HOME) goes to a temporary folder.
 * Known noise, not errors: it warns that `Request.cf` cannot be fetched offline, and its esbuild
 * child prints a Go stack trace when stopped.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '../processes';
import { processHost } from './process-host';
import { hostRuntimes } from './runtimes';
import type { RunningHost } from './types';

export async function startCloudflareHost(options: { outDir: string; port?: number }): Promise<RunningHost> {
  const runtime = hostRuntimes();
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
