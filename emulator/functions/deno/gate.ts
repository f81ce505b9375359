/**
 * The door of a function's loopback port (runs under Deno, inside host.ts). The port is reachable
 * by every local process and, through DNS rebinding, by any web page the developer opens; without a
 * door, any of them could call the function with forged `Base44-*` headers, as any user or as the
 * service role. So a request reaches the function only when it carries the key the emulator handed
 * this process on stdin (fresh for every process, never in the environment or on the command line,
 * so function code and other processes cannot read it) and names this port by a loopback name in
 * `Host` (what a rebinding page cannot send). Anything else is a bare 403.
 *
 * The function then sees the request as the platform shows it: at the emulator's public address,
 * with the emulator's `Host`, and without the key.
 */

/** The header that carries the key; the emulator sets it on every call and drops any caller's. */
export const KEY_HEADER = 'x-emulator-function-key';
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export type Handler<Info> = (request: Request, info: Info) => Response | Promise<Response>;

export interface GateSettings {
  /** The key the emulator sends with every call. */
  key: string;
  /** The emulator's own origin (`http://127.0.0.1:3001`): the address the function sees. */
  origin: string;
  /** The port this process listens on, once known. */
  port(): number | null;
}

/** Compares in time independent of where the strings differ (the key must not leak by timing). */
function sameKey(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let index = 0; index < b.length; index += 1) difference |= (a[index] ?? 0) ^ (b[index] as number);
  return difference === 0;
}

function isOwnHost(host: string | null, port: number | null): boolean {
  if (host === null || port === null) return false;
  return LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/**
 * The request as the function sees it: the emulator's address and Host, the key removed. (Its abort
 * signal is not carried over: reading `request.signal` makes Deno 2.9 print a warning into every
 * function's log, and the emulator drops a call only when it stops the whole process.)
 */
function forFunction(request: Request, origin: string): Request {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.delete(KEY_HEADER);
  headers.set('host', new URL(origin).host);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(new URL(`${url.pathname}${url.search}`, origin), {
    method: request.method,
    headers,
    ...(hasBody ? { body: request.body } : {}),
  });
}

/** Wraps the function's handler in the door. */
export function gated<Info>(handler: Handler<Info>, settings: GateSettings): Handler<Info> {
  return (request, info) => {
    if (
      !sameKey(request.headers.get(KEY_HEADER), settings.key) ||
      !isOwnHost(request.headers.get('host'), settings.port())
    ) {
      return new Response('This port answers the emulator only.\n', {
        status: 403,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    }
    return handler(forFunction(request, settings.origin), info);
  };
}
