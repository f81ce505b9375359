import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

import { DomainError } from '../core/errors';
import { fingerprint, type FunctionEntry } from './catalog';
import { newDoorKey, startFunctionProcess, type FunctionProcess } from './deno-process';

/**
 * The emulator's one function runtime, Deno, as the platform's: every backend function (the
 * project's `base44/functions`, a seeded app's functions folder) runs unchanged in a Deno process of
 * its own, started on its first call and restarted when its files change (deno-process.ts). Each
 * call is forwarded to the function's loopback port with the headers `createClientFromRequest`
 * reads, so the function's client calls back into the emulator as the caller (and as the service
 * role through `asServiceRole`). A call that outlasts the timeout is answered for the function and
 * the process is stopped (a hung event loop would block every later call); the next call starts it
 * afresh.
 */

/** deno/gate.ts's header (Deno code cannot be imported here); a caller's own copy never passes. */
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

export interface FunctionRuntimeOptions {
  /** The emulator's own origin, known once it listens: the address a function sees its requests at. */
  origin(): string;
  log(line: string): void;
  denoPath?: string;
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

interface Running extends FunctionProcess {
  entryPath: string;
  fingerprint: string;
}

/** A function by its folder and name: a project function and a seeded app's of one name are two. */
function slotOf(fn: FunctionEntry): string {
  return `${fn.root}\0${fn.name}`;
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

/** The caller's headers without any that speak for the platform or the door, then the platform's own. */
function forwardedHeaders(
  call: FunctionCall,
  platformHeaders: Record<string, string>,
  port: number,
  key: string,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [header, value] of Object.entries(call.headers)) {
    if (value === undefined || HOP_BY_HOP.has(header) || header.startsWith('base44-') || header === KEY_HEADER)
      continue;
    headers[header] = value;
  }
  Object.assign(headers, platformHeaders);
  headers.host = `127.0.0.1:${port}`;
  headers[KEY_HEADER] = key;
  headers['content-length'] = String(call.body.length);
  return headers;
}

export class FunctionRuntime {
  /** By slotOf. */
  private readonly running = new Map<string, Running>();
  private closed = false;

  constructor(private readonly options: FunctionRuntimeOptions) {}

  /** Sends one call to the function; `platformHeaders` (Base44-App-Id and the rest) replace the caller's. */
  async invoke(
    fn: FunctionEntry,
    call: FunctionCall,
    platformHeaders: Record<string, string>,
  ): Promise<FunctionAnswer> {
    const running = await this.ensureRunning(fn);
    const port = await running.port;
    return this.send(fn, port, call, forwardedHeaders(call, platformHeaders, port, running.key));
  }

  private send(
    fn: FunctionEntry,
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
        void this.stop(slotOf(fn));
        const message = `Function ${fn.name} did not finish within ${timeoutMs / 1000} s`;
        reject(new DomainError('timed_out', 'function_timeout', message));
      }, timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(new DomainError('project_failed', 'function_error', `Function ${fn.name} failed: ${error.message}`));
      };
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          clearTimeout(timer);
          const status = response.statusCode ?? 502;
          resolve({ status, headers: answerHeaders(response.headers), body: Buffer.concat(chunks) });
        });
      });
      outgoing.end(call.body);
    });
  }

  private async ensureRunning(fn: FunctionEntry): Promise<Running> {
    if (this.closed) throw new DomainError('project_failed', 'function_error', 'The emulator is shutting down');
    const print = await fingerprint(fn.dir);
    const current = this.running.get(slotOf(fn));
    if (current && current.fingerprint === print && current.entryPath === fn.entryPath) return current;
    if (current) {
      this.options.log(`[${fn.name}] files changed: restarting`);
      await this.stop(slotOf(fn));
    }
    return this.running.get(slotOf(fn)) ?? this.start(fn, print);
  }

  private start(fn: FunctionEntry, print: string): Running {
    const running: Running = {
      ...startFunctionProcess({
        entry: fn,
        origin: this.options.origin(),
        key: newDoorKey(),
        log: this.options.log,
        startTimeoutMs: this.options.startTimeoutMs ?? DEFAULT_FUNCTION_START_TIMEOUT_MS,
        ...(this.options.denoPath === undefined ? {} : { denoPath: this.options.denoPath }),
        ...(this.options.denoDir === undefined ? {} : { denoDir: this.options.denoDir }),
      }),
      entryPath: fn.entryPath,
      fingerprint: print,
    };
    this.running.set(slotOf(fn), running);
    running.child.once('exit', (code, signal) => {
      if (this.running.get(slotOf(fn)) === running) this.running.delete(slotOf(fn));
      if (!this.closed && code !== 0) this.options.log(`[${fn.name}] exited (${signal ?? code})`);
    });
    return running;
  }

  private async stop(slot: string): Promise<void> {
    const running = this.running.get(slot);
    if (!running) return;
    this.running.delete(slot);
    running.child.kill('SIGTERM');
    const timer = setTimeout(() => running.child.kill('SIGKILL'), 2_000);
    await running.exited;
    clearTimeout(timer);
  }

  /** Stops every function process and refuses new calls. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running.keys()].map((slot) => this.stop(slot)));
  }
}
