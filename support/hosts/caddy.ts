/**
 * Debian's Caddy serving a static export, as docs/DEPLOY.md says: a site block with `root` and the
 * generated snippet (`deploy/generated/caddy-<folder>.caddy`) imported (`snippet`), or with Caddy's
 * plain `file_server` (`defaults`). Only what running unprivileged on a loopback port needs is
 * added: no admin endpoint (several run at once), no automatic HTTPS, and HOME and Caddy's data and
 * configuration folders in a temporary folder.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { quoted } from '../../deploy/headers/servers/site-rules';
import { freePort } from '../processes';
import { generatedSnippetFor } from './nginx';
import { processHost } from './process-host';
import { findServer, serverMissingHelp } from './programs';
import type { RunningHost } from './types';

export type CaddySetup = 'snippet' | 'defaults';

function caddyfile(port: number, root: string, setup: CaddySetup, snippet: string): string {
  return [
    '{',
    '\tadmin off',
    '\tauto_https off',
    '}',
    `http://127.0.0.1:${port} {`,
    `\troot * ${quoted(root)}`,
    setup === 'snippet' ? `\timport ${quoted(snippet)}` : '\tfile_server',
    '}',
    '',
  ].join('\n');
}

export async function startCaddyHost(options: {
  outDir: string;
  port?: number;
  setup?: CaddySetup;
}): Promise<RunningHost> {
  const caddy = findServer('caddy');
  if (!caddy) throw new Error(serverMissingHelp('caddy'));
  const root = path.resolve(options.outDir);
  const setup = options.setup ?? 'snippet';
  const snippet = generatedSnippetFor(root, 'caddy');
  if (setup === 'snippet' && !existsSync(snippet)) throw new Error(`${snippet} is missing: build ${root} first`);
  const port = options.port || (await freePort());
  const scratch = mkdtempSync(path.join(tmpdir(), 'caddy-host-'));
  const config = path.join(scratch, 'Caddyfile');
  writeFileSync(config, caddyfile(port, root, setup, snippet));
  const child = spawn(caddy, ['run', '--config', config, '--adapter', 'caddyfile'], {
    cwd: scratch,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HOME: scratch, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: scratch },
  });
  const output: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return processHost({
    name: `caddy (${setup})`,
    child,
    port,
    scratch,
    timeoutMs: 15_000,
    describe: () => output.join('').slice(-4_000),
  });
}
