import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { DomainError } from '../core/errors';
import type { FunctionEntry } from './catalog';

/**
 * One Deno process serving one function (deno/host.ts imports the function unchanged and serves it
 * on a loopback port it reports). Deno may use the network and the environment (functions call APIs
 * and read secrets from the environment, as they do from the platform's secrets) and read the
 * function's own folder, the `shared/` folder beside its functions folder and our `base44:runtime`
 * module; no writing, subprocesses or native code. The port's door (deno/gate.ts) gets its key on
 * stdin: the environment and the command line are readable by the function and by other processes.
 */

const REPO_ROOT = path.join(__dirname, '..', '..');
const HOST_SCRIPT = path.join(__dirname, 'deno', 'host.ts');
/** Maps `base44:runtime` (secrets, waitUntil) onto our local module, as deployed functions import it. */
const IMPORT_MAP = path.join(__dirname, 'deno', 'import-map.json');
const RUNTIME_MODULE = path.join(__dirname, 'deno', 'base44-runtime.ts');

export interface FunctionProcessOptions {
  entry: FunctionEntry;
  /** The emulator's origin: the address the function sees its requests at. */
  origin: string;
  /** The door's key; only calls that carry it reach the function. */
  key: string;
  log(line: string): void;
  startTimeoutMs: number;
  denoPath?: string;
  /** Deno's module cache; default node_modules/.cache/deno, so `npm:` imports are fetched once. */
  denoDir?: string;
}

export interface FunctionProcess {
  child: ChildProcess;
  key: string;
  /** The port, once the function serves; rejects when it fails to start. */
  port: Promise<number>;
  exited: Promise<void>;
}

/** A fresh door key for a new process. */
export function newDoorKey(): string {
  return randomBytes(32).toString('base64url');
}

function pipeLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let pending = '';
  stream?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(line.replace(/\r$/, ''));
  });
  stream?.on('end', () => {
    if (pending.trim() !== '') onLine(pending);
  });
}

function spawnDeno(options: FunctionProcessOptions, readyMark: string): ChildProcess {
  const { entry } = options;
  const readable = [entry.dir, path.join(entry.root, '..', 'shared'), RUNTIME_MODULE];
  return spawn(
    options.denoPath ?? path.join(REPO_ROOT, 'node_modules', '.bin', 'deno'),
    [
      'run',
      '--no-config',
      '--no-prompt',
      `--import-map=${IMPORT_MAP}`,
      '--allow-net',
      '--allow-env',
      `--allow-read=${readable.join(',')}`,
      HOST_SCRIPT,
    ],
    {
      cwd: entry.dir,
      env: {
        ...process.env,
        DENO_DIR: options.denoDir ?? process.env.DENO_DIR ?? path.join(REPO_ROOT, 'node_modules', '.cache', 'deno'),
        NO_COLOR: '1',
        FUNCTION_URL: pathToFileURL(entry.entryPath).href,
        FUNCTION_NAME: entry.name,
        FUNCTION_READY_MARK: readyMark,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
}

function startFailed(message: string): DomainError {
  return new DomainError('project_failed', 'function_error', message);
}

/** The port the host script reports on its ready line; output lines go to `log`. */
function portOf(child: ChildProcess, options: FunctionProcessOptions, readyMark: string): Promise<number> {
  const { name } = options.entry;
  const log = (line: string) => options.log(`[${name}] ${line}`);
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(startFailed(`Function ${name} did not start within ${options.startTimeoutMs / 1000} s`));
    }, options.startTimeoutMs);
    pipeLines(child.stdout, (line) => {
      if (!line.startsWith(`${readyMark} `)) return log(line);
      clearTimeout(timer);
      resolve(Number(line.slice(readyMark.length + 1)));
    });
    pipeLines(child.stderr, log);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(startFailed(`Function ${name} could not start Deno: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(startFailed(`Function ${name} exited (${signal ?? code}) before it served`));
    });
  });
}

/** Starts the function's process; its port resolves once it serves. */
export function startFunctionProcess(options: FunctionProcessOptions): FunctionProcess {
  const readyMark = `emulator-function-ready-${randomBytes(12).toString('hex')}`;
  const child = spawnDeno(options, readyMark);
  // The door's settings, read by host.ts before the function's code is imported.
  child.stdin?.write(`${JSON.stringify({ key: options.key, origin: options.origin })}\n`);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const port = portOf(child, options, readyMark);
  // Read by every caller; a rejection nobody awaited yet must not become an unhandled one.
  port.catch(() => undefined);
  return { child, key: options.key, port, exited };
}
