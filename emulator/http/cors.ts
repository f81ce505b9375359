import { HttpError } from './errors';

/**
 * CORS for the platform API. The site calls the emulator cross-origin, so its origins are reflected:
 * every loopback origin (`localhost`, `127.0.0.1`, `[::1]` on any port, as a Vite or Next dev server
 * on this machine serves the app; the vendor's `base44 dev` admits `http://localhost:*`), each app's
 * site origins and the `siteOrigins` option. No other origin is, and a browser request from any other
 * origin is refused outright rather than processed and hidden from the page.
 */

/** Every header the project's SDK or the public @base44/sdk sets on API requests. */
export const ALLOWED_REQUEST_HEADERS = [
  'Accept',
  'Authorization',
  'Content-Type',
  'X-App-Id',
  'X-Origin-URL',
  'X-Base44-Anonymous-Id',
  'Base44-Functions-Version',
  'Base44-State',
  'X-Data-Env',
  'on-behalf-of',
];

/** Response headers a page may read: @base44/sdk takes a connector error's code from this one. */
export const CONNECTOR_ERROR_HEADER = 'X-Base44-Connector-Error';
const EXPOSED_RESPONSE_HEADERS = [CONNECTOR_ERROR_HEADER];

const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Normalises `http://Host:80/path` style input to a bare origin; null when it is not http(s). */
export function toOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

export function originSet(origins: Iterable<string>): Set<string> {
  const set = new Set<string>();
  for (const origin of origins) {
    const normalised = toOrigin(origin);
    if (normalised) set.add(normalised);
  }
  return set;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A page served from this machine: http(s) on a loopback name, any port. The exact spelling a browser sends. */
export function isLoopbackOrigin(origin: string): boolean {
  const normalised = toOrigin(origin);
  if (normalised !== origin) return false;
  return LOOPBACK_HOSTS.has(new URL(origin).hostname);
}

/** Which browser origins may call the API: every loopback origin, plus the configured ones. */
export class OriginPolicy {
  private readonly configured: ReadonlySet<string>;

  constructor(configured: Iterable<string>) {
    this.configured = originSet(configured);
  }

  has(origin: string): boolean {
    return this.configured.has(origin) || isLoopbackOrigin(origin);
  }
}

/** Headers for an actual (non-preflight) request; throws 403 for a foreign browser origin. */
export function corsHeadersFor(originHeader: string | undefined, allowed: OriginPolicy): Record<string, string> {
  if (originHeader === undefined) return {};
  if (!allowed.has(originHeader)) {
    const origin = originHeader.slice(0, 200);
    throw new HttpError(
      403,
      `Origin ${origin} is not allowed to call this emulator: start it with --site-origin ${origin} to allow it`,
      {
        code: 'origin_not_allowed',
        detail:
          "Loopback origins are allowed on any port; others need --site-origin or the app's site origins in the seed.",
      },
    );
  }
  return {
    'Access-Control-Allow-Origin': originHeader,
    'Access-Control-Expose-Headers': EXPOSED_RESPONSE_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

export function preflightHeaders(originHeader: string | undefined, allowed: OriginPolicy): Record<string, string> {
  return {
    ...corsHeadersFor(originHeader, allowed),
    'Access-Control-Allow-Methods': ALLOWED_METHODS.join(', '),
    'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS.join(', '),
    'Access-Control-Max-Age': '600',
  };
}
