/**
 * Runs ONE backend function of a Base44 project unchanged, the way the platform does: a module that
 * calls `Deno.serve(handler)` while it is imported (the documented shape), or one whose default
 * export is a handler or `{ fetch }`. This file runs under Deno (not Node); the emulator spawns it
 * per function (emulator/functions/deno-process.ts) and forwards the calls to the port it
 * reports.
 *
 * `Deno.serve` is replaced before the function is imported so that whatever options the function
 * passes, it listens on the loopback interface on a port the system picks (the function cannot
 * choose one that collides), behind the door of gate.ts, and the bound port is reported on stdout as
 * one line `<FUNCTION_READY_MARK> <port>`, which the emulator reads and strips from the logs.
 *
 * Environment: FUNCTION_URL (file: URL of the entry), FUNCTION_NAME (for logs), FUNCTION_READY_MARK.
 * Stdin: first one JSON line `{ "key", "origin" }` (the door's key and the emulator's address,
 * read before the function is imported), then nothing until the emulator goes.
 */

import { gated, type Handler as GatedHandler, type GateSettings } from './gate.ts';

type Handler = GatedHandler<Deno.ServeHandlerInfo<Deno.NetAddr>>;

const entry = Deno.env.get('FUNCTION_URL');
const name = Deno.env.get('FUNCTION_NAME') ?? 'function';
const readyMark = Deno.env.get('FUNCTION_READY_MARK');

if (!entry || !readyMark) {
  console.error('[host] FUNCTION_URL and FUNCTION_READY_MARK are required');
  Deno.exit(2);
}

/**
 * Reads the first line of stdin (the door's settings), then keeps reading: the emulator holds our
 * stdin open for as long as it runs, so end of input means it is gone (even killed outright), and
 * the function goes too instead of lingering as an orphan.
 */
async function readSettings(): Promise<{ key: string; origin: string }> {
  const reader = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) Deno.exit(0);
    text += value;
  }
  void (async () => {
    while (!(await reader.read()).done) {
      // Nothing more is sent; only the end matters.
    }
    Deno.exit(0);
  })();
  const settings = JSON.parse(text.slice(0, text.indexOf('\n'))) as { key?: unknown; origin?: unknown };
  if (typeof settings.key !== 'string' || settings.key.length < 32 || typeof settings.origin !== 'string') {
    console.error('[host] the first line of stdin must be {"key", "origin"}');
    Deno.exit(2);
  }
  return { key: settings.key, origin: settings.origin };
}

let boundPort: number | null = null;
const door: GateSettings = { ...(await readSettings()), port: () => boundPort };

const originalServe = Deno.serve.bind(Deno);
let served = false;

function listen(options: Record<string, unknown>, handler: Handler): Deno.HttpServer<Deno.NetAddr> {
  if (served) throw new Error(`${name}: Deno.serve was called twice; a function serves one handler`);
  served = true;
  return originalServe(
    {
      ...options,
      hostname: '127.0.0.1',
      port: 0,
      onListen: ({ port }) => {
        boundPort = port;
        console.log(`${readyMark} ${port}`);
      },
    },
    gated(handler, door),
  );
}

function patchedServe(first: unknown, second?: unknown): Deno.HttpServer<Deno.NetAddr> {
  if (typeof first === 'function') return listen({}, first as Handler);
  const options = { ...(first as Record<string, unknown>) };
  if (typeof second === 'function') return listen(options, second as Handler);
  const handler = options.handler;
  delete options.handler;
  if (typeof handler !== 'function') throw new TypeError(`${name}: Deno.serve needs a handler`);
  return listen(options, handler as Handler);
}

// Deno 2.8+ exposes Deno.serve as a getter; defineProperty replaces it either way.
Object.defineProperty(Deno, 'serve', { value: patchedServe, writable: true, configurable: true });

function defaultHandler(module: Record<string, unknown>): Handler | null {
  const exported = module.default;
  if (typeof exported === 'function') return exported as Handler;
  if (exported && typeof exported === 'object') {
    const fetch = (exported as { fetch?: unknown }).fetch;
    if (typeof fetch === 'function') return (fetch as Handler).bind(exported);
  }
  return null;
}

let loaded: Record<string, unknown>;
try {
  loaded = await import(entry);
} catch (error) {
  console.error(`[${name}] failed to load:`, error);
  Deno.exit(1);
}

if (!served) {
  const handler = defaultHandler(loaded);
  if (!handler) {
    console.error(`[${name}] the function must call Deno.serve(handler) or export a default handler`);
    Deno.exit(1);
  }
  listen({}, handler);
}
