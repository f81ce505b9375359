import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { fingerprint, readProjectFunctions, type ProjectFunction } from './project-functions';

/**
 * Runs a project's backend functions on Deno, unchanged, as the platform does: one Deno process per
 * function (started on its first call, restarted when its files change), listening on a loopback
 * port it picks; the emulator forwards each call to it with the headers `createClientFromRequest`
 * reads, so the function's client calls back into the emulator as the caller (and as the service
 * role through `asServiceRole`). Output goes to the emulator's terminal line by line. A call that
 * outlasts the timeout is answered for the function and the process is stopped (a hung event loop
 * would block every later call); the next call starts it afresh.
 *
 * Deno runs with network and environment access (functions call APIs and read secrets from the
 * environment, as they do from the platform's secrets) and read access to the function's own folder,
 * the project's `shared/` folder and our `base44:runtime` module; no writing, subprocesses or
 * native code.
 */

const REPO_ROOT = path.join(__dirname, '..', '..');
const HOST_SCRIPT = path.join(__dirname, 'deno', 'host.ts');
/** Maps `base44:runtime` (secrets, waitUntil) onto our local module, as deployed functions import it. */
const IMPORT_MAP = path.join(__dirname, 'deno', 'import-map.json');
const RUNTIME_MODULE = path.join(__dirname, 'deno', 'base44-runtime.ts');
/** deno/gate.ts's header (Deno code cannot be imported here); the caller's own copy never passes. */
const KEY_HEADER = 'x-emulator-function-key';
const HOP_BY_HOP = new Set([
  'connection',
  'content-length',
  'host',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The documented limit of the platform (docs.base44.com, Backend functions: 5 minutes a call). */
export const DEFAULT_FUNCTION_TIMEOUT_MS = 5 * 60 * 1000;
/** The first start of a machine downloads `npm:` packages into DENO_DIR; later starts take a second. */
export const DEFAULT_FUNCTION_START_TIMEOUT_MS = 120_000;

export interface DenoRuntimeOptions {
  /** The functions root of the project (`base44/functions`). */
  dir: string;
  /** The emulator's own origin, known once it listens: the address a function sees its requests at. */
  origin(): string;
  log(line: string): void;
  denoPath?: string;
  /** Deno's module cache; default node_modules/.cache/deno, so `npm:` imports are fetched once. */
  denoDir?: string;
  timeoutMs?: number;
  startTimeoutMs?: number;
}

export interface FunctionCall {
  method: string;
  /** Path and query the function sees, e.g. `/api/apps/app-1/functions/hello`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FunctionAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Why a call did not reach an answer from the function; the route turns it into the HTTP error. */
export class FunctionRunError extends Error {
  constructor(
    message: string,
    readonly reason: 'start_failed' | 'timeout' | 'crashed',
  ) {
    super(message);
  }
}

interface RunningFunction {
  child: ChildProcess;
  /** The door's key of this process (deno/gate.ts): only calls that carry it reach the function. */
  key: string;
  entryPath: string;
  fingerprint: string;
  port: Promise<number>;
  exited: Promise<void>;
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

function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // CORS is the emulator's policy, not the function's: its own Access-Control-* headers would
    // let any origin read what the emulator refuses to show it.
    if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('access-control-')) continue;
    result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

export class DenoFunctionRuntime {
  private readonly running = new Map<string, RunningFunction>();
  private closed = false;

  constructor(private readonly options: DenoRuntimeOptions) {}

  get dir(): string {
    return this.options.dir;
  }

  /** The project's functions now (a bad config throws FunctionConfigError). */
  list(): Promise<Map<string, ProjectFunction>> {
    return readProjectFunctions(this.options.dir);
  }

  /**
   * Sends one call to a function of `list()`. `platformHeaders` (Base44-App-Id and the rest) are
   * added after every Base44-* header of the caller is dropped.
   */
  async invoke(
    fn: ProjectFunction,
    call: FunctionCall,
    platformHeaders: Record<string, string>,
  ): Promise<FunctionAnswer> {
    const { port, key } = await this.ensureRunning(fn);
    const headers: Record<string, string | string[]> = {};
    for (const [header, value] of Object.entries(call.headers)) {
      // The caller may not speak for the platform: Base44-* headers come from the emulator only.
      if (value === undefined || HOP_BY_HOP.has(header) || header.startsWith('base44-') || header === KEY_HEADER)
        continue;
      headers[header] = value;
    }
    Object.assign(headers, platformHeaders);
    headers.host = `127.0.0.1:${port}`;
    headers[KEY_HEADER] = key;
    headers['content-length'] = String(call.body.length);
    return this.send(fn, port, call, headers);
  }

  private send(
    fn: ProjectFunction,
    port: number,
    call: FunctionCall,
    headers: Record<string, string | string[]>,
  ): Promise<FunctionAnswer> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS;
    return new Promise<FunctionAnswer>((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, method: call.method, path: call.path, headers });
      const timer = setTimeout(() => {
        outgoing.destroy();
        this.options.log(`[${fn.name}] did not answer within ${timeoutMs / 1000} s: stopped`);
        void this.stop(fn.name);
        reject(new FunctionRunError(`Function ${fn.name} did not finish within ${timeoutMs / 1000} s`, 'timeout'));
      }, timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(new FunctionRunError(`Function ${fn.name} failed: ${error.message}`, 'crashed'));
      };
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 502,
            headers: answerHeaders(response.headers),
            body: Buffer.concat(chunks),
          });
        });
      });
      outgoing.end(call.body);
    });
  }

  private async ensureRunning(fn: ProjectFunction): Promise<{ port: number; key: string }> {
    if (this.closed) throw new FunctionRunError('The emulator is shutting down', 'start_failed');
    const print = await fingerprint(fn.dir);
    const current = this.running.get(fn.name);
    if (current && current.fingerprint === print && current.entryPath === fn.entryPath) {
      return { port: await current.port, key: current.key };
    }
    if (current) {
      this.options.log(`[${fn.name}] files changed: restarting`);
      await this.stop(fn.name);
    }
    const started = this.running.get(fn.name) ?? this.spawn(fn, print);
    return { port: await started.port, key: started.key };
  }

  private spawn(fn: ProjectFunction, print: string): RunningFunction {
    const readyMark = `emulator-function-ready-${randomBytes(12).toString('hex')}`;
    const key = randomBytes(32).toString('base64url');
    const readable = [fn.dir, path.join(this.options.dir, '..', 'shared'), RUNTIME_MODULE];
    const child = spawn(
      this.options.denoPath ?? path.join(REPO_ROOT, 'node_modules', '.bin', 'deno'),
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
        cwd: fn.dir,
        env: {
          ...process.env,
          DENO_DIR:
            this.options.denoDir ?? process.env.DENO_DIR ?? path.join(REPO_ROOT, 'node_modules', '.cache', 'deno'),
          NO_COLOR: '1',
          FUNCTION_URL: pathToFileURL(fn.entryPath).href,
          FUNCTION_NAME: fn.name,
          FUNCTION_READY_MARK: readyMark,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    // The door's settings go on stdin, the one channel neither function code (it runs after they are
    // read) nor another process can read; the environment and the command line are both visible.
    child.stdin?.write(`${JSON.stringify({ key, origin: this.options.origin() })}\n`);
    const log = (line: string) => this.options.log(`[${fn.name}] ${line}`);
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const port = new Promise<number>((resolve, reject) => {
      const startTimeoutMs = this.options.startTimeoutMs ?? DEFAULT_FUNCTION_START_TIMEOUT_MS;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new FunctionRunError(`Function ${fn.name} did not start within ${startTimeoutMs / 1000} s`, 'start_failed'),
        );
      }, startTimeoutMs);
      pipeLines(child.stdout, (line) => {
        if (line.startsWith(`${readyMark} `)) {
          clearTimeout(timer);
          resolve(Number(line.slice(readyMark.length + 1)));
        } else log(line);
      });
      pipeLines(child.stderr, log);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new FunctionRunError(`Function ${fn.name} could not start Deno: ${error.message}`, 'start_failed'));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new FunctionRunError(`Function ${fn.name} exited (${signal ?? code}) before it served`, 'start_failed'));
      });
    });
    // Read by every caller; a rejection nobody awaited yet must not become an unhandled one.
    port.catch(() => undefined);
    const running: RunningFunction = { child, key, entryPath: fn.entryPath, fingerprint: print, port, exited };
    this.running.set(fn.name, running);
    child.once('exit', (code, signal) => {
      if (this.running.get(fn.name) === running) this.running.delete(fn.name);
      if (!this.closed && code !== 0) log(`exited (${signal ?? code})`);
    });
    return running;
  }

  private async stop(name: string): Promise<void> {
    const running = this.running.get(name);
    if (!running) return;
    this.running.delete(name);
    running.child.kill('SIGTERM');
    const timer = setTimeout(() => running.child.kill('SIGKILL'), 2_000);
    await running.exited;
    clearTimeout(timer);
  }

  /** Stops every function process and refuses new calls. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running.keys()].map((name) => this.stop(name)));
  }
}
