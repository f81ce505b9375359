/**
 * The static servers from npm that stand for two hosts (their versions pinned in runtime/):
 * - Firebase Hosting: superstatic, its serving engine. `generated` runs it in the export folder, where
 *   it reads the generated `firebase.json`; `defaults` runs it from an empty folder with no
 *   configuration; `clean-urls` with `{"cleanUrls": true}` alone, the setting Firebase's docs suggest.
 * - Vercel: `serve`, Vercel's static server. `generated` reads the generated `serve.json` of the
 *   folder; `defaults` is given an empty configuration instead.
 * Both run on this Node, without update checks or a clipboard, on a loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '../processes';
import { processHost } from './process-host';
import { hostRuntimes } from './runtimes';
import type { RunningHost } from './types';

export type SuperstaticSetup = 'generated' | 'defaults' | 'clean-urls';
export type ServeSetup = 'generated' | 'defaults';

function run(name: string, child: ChildProcess, port: number, scratch: string): Promise<RunningHost> {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return processHost({ name, child, port, scratch, timeoutMs: 30_000, describe: () => output.join('').slice(-4_000) });
}

const QUIET_ENV = { NO_UPDATE_CHECK: '1', NO_COLOR: '1' };

export async function startSuperstaticHost(options: {
  outDir: string;
  port?: number;
  setup?: SuperstaticSetup;
}): Promise<RunningHost> {
  const { superstatic } = hostRuntimes();
  const root = path.resolve(options.outDir);
  const setup = options.setup ?? 'generated';
  const port = options.port || (await freePort());
  const scratch = mkdtempSync(path.join(tmpdir(), 'superstatic-host-'));
  // superstatic serves its folder argument relative to its working folder, where it reads firebase.json.
  const cwd = setup === 'generated' ? root : scratch;
  const config = setup === 'clean-urls' ? ['--config', JSON.stringify({ cleanUrls: true })] : [];
  const args = [superstatic, path.relative(cwd, root) || '.', '--port', String(port), '--host', '127.0.0.1', ...config];
  const child = spawn(process.execPath, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...QUIET_ENV, HOME: scratch },
  });
  return run(`superstatic (${setup})`, child, port, scratch);
}

export async function startServeHost(options: {
  outDir: string;
  port?: number;
  setup?: ServeSetup;
}): Promise<RunningHost> {
  const { serve } = hostRuntimes();
  const root = path.resolve(options.outDir);
  const setup = options.setup ?? 'generated';
  const port = options.port || (await freePort());
  const scratch = mkdtempSync(path.join(tmpdir(), 'serve-host-'));
  const config: string[] = [];
  if (setup === 'defaults') {
    writeFileSync(path.join(scratch, 'serve.json'), '{}\n');
    config.push('--config', path.join(scratch, 'serve.json'));
  }
  const args = [
    serve,
    root,
    '--listen',
    `tcp://127.0.0.1:${port}`,
    '--no-clipboard',
    '--no-port-switching',
    '--no-request-logging',
    ...config,
  ];
  const child = spawn(process.execPath, args, {
    cwd: scratch,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...QUIET_ENV, HOME: scratch },
  });
  return run(`serve (${setup})`, child, port, scratch);
}
