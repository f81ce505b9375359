import { HttpError } from './errors';

/**
 * CORS for the platform API. The site calls the emulator cross-origin, so its origins (each app's
 * site origins plus the `siteOrigins` option) are reflected; no other origin is, and a browser
 * request from any other origin is refused outright rather than processed and hidden from the page.
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

/** Headers for an actual (non-preflight) request; throws 403 for a foreign browser origin. */
export function corsHeadersFor(originHeader: string | undefined, allowed: ReadonlySet<string>): Record<string, string> {
  if (originHeader === undefined) return {};
  if (!allowed.has(originHeader)) {
    throw new HttpError(403, `Origin ${originHeader.slice(0, 200)} is not allowed to call this emulator`, {
      code: 'origin_not_allowed',
      detail: "Add it to the app's site origins in the seed or pass it with --site-origin.",
    });
  }
  return {
    'Access-Control-Allow-Origin': originHeader,
    'Access-Control-Expose-Headers': EXPOSED_RESPONSE_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

export function preflightHeaders(
  originHeader: string | undefined,
  allowed: ReadonlySet<string>,
): Record<string, string> {
  return {
    ...corsHeadersFor(originHeader, allowed),
    'Access-Control-Allow-Methods': ALLOWED_METHODS.join(', '),
    'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS.join(', '),
    'Access-Control-Max-Age': '600',
  };
}
