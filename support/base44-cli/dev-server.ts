/**
 * Starts the vendor's local backend (`base44 dev`) offline, for tests and tools: a temporary HOME
 * with a stub login (the CLI refuses to start without one, and never needs it offline), a free
 * port, its own process group so that stopping it also stops the site it started, and nothing left
 * behind. The CLI is the pinned, unmodified package (see vendor.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort, stopGroup } from '../processes';
import { BASE44_LAUNCHER, REPO_ROOT } from './paths';

export interface VendorDevServerOptions {
  /** Folder holding `base44/` (config.jsonc, .app.jsonc, entities/, functions/). */
  projectDir: string;
  /** Port for the backend; a free one when omitted. */
  port?: number;
  /** Extra environment for the CLI and the site command it starts. */
  env?: Record<string, string>;
  /** How long to wait for the backend to listen (default 60 s; the first function run fetches Deno modules). */
  readyTimeoutMs?: number;
}

export interface VendorDevServer {
  /** The backend's origin, e.g. `http://localhost:4555` (what it passes as VITE_BASE44_APP_BASE_URL). */
  url: string;
  port: number;
  /** The CLI's process id, which is also its process group's (the site command runs in it). */
  pid: number;
  /** Everything the CLI printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

// With a site the CLI says "Backend running on URL"; a backend-only project says "Dev server is available at URL".
const READY = /(?:Backend running on|Dev server is available at) (http:\/\/[^\s\x1b]+)/;

/** A login file in the shape `base44 login` writes; the tokens are never sent anywhere offline. */
export function writeStubLogin(home: string): void {
  const dir = path.join(home, '.base44', 'auth');
  mkdirSync(dir, { recursive: true });
  const login = {
    accessToken: 'offline-stub-access-token',
    refreshToken: 'offline-stub-refresh-token',
    expiresAt: Date.now() + 365 * 24 * 60 * 60 * 1000,
    email: 'developer@example.com',
    name: 'Offline Developer',
  };
  writeFileSync(path.join(dir, 'auth.json'), JSON.stringify(login, null, 2));
}

export async function startVendorDevServer(options: VendorDevServerOptions): Promise<VendorDevServer> {
  const port = options.port ?? (await freePort());
  const home = mkdtempSync(path.join(tmpdir(), 'base44-home-'));
  writeStubLogin(home);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    CI: 'true',
    // Deno's module cache outlives the temporary HOME, so `npm:` imports are fetched once per machine.
    DENO_DIR: process.env.DENO_DIR ?? path.join(REPO_ROOT, 'node_modules', '.cache', 'deno'),
    PATH: [path.join(REPO_ROOT, 'node_modules', '.bin'), process.env.PATH].filter(Boolean).join(path.delimiter),
    ...options.env,
  };
  const child = spawn(process.execPath, [BASE44_LAUNCHER, 'dev', '--port', String(port)], {
    cwd: options.projectDir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async () => {
    // The site command runs in the same group: nothing of it survives, a clean exit or not.
    await stopGroup(child);
    rmSync(home, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`base44 dev did not start in time:\n${output}`)),
      options.readyTimeoutMs ?? 60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`base44 dev exited (${signal ?? code}) before listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, port, pid: child.pid ?? 0, output: () => output, stop };
}
