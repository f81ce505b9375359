import { invalidInput } from '../core/errors';

/**
 * One reading of a request path, made once before any gate: the local-only helpers, the CORS gate
 * and the router all decide on it, so no spelling (`//`, `%5F`, `%61pi`, `x/..`) can reach a route
 * past a gate that read it differently.
 *
 * - The request target is parsed as a path, never as a relative URL (`//api/x` is the path
 *   `//api/x`, not the host `api`); an absolute-form target (`http://host/path`) gives its path.
 * - Dot segments are resolved by the WHATWG URL parser (which also reads `%2e` as a dot).
 * - Each segment is percent-decoded exactly once; a broken encoding, a control character or a
 *   segment that decodes to `.` or `..` cannot be read one way and is a 400 `malformed_path`.
 * - Empty segments (duplicate and trailing slashes) are dropped.
 * - Case is kept: routes and gates are case-sensitive alike (`/API/...` matches nothing).
 *
 * The router gets the segments re-encoded with `encodeURIComponent`, so a decoded `/` (from `%2F`)
 * stays inside its segment (socket rooms travel that way) and decodes back to the same parameter.
 */

export interface CanonicalPath {
  /** Decoded, non-empty segments. */
  segments: readonly string[];
  /** `/` + the segments re-encoded one way: what the router matches. */
  path: string;
}

const URL_BASE = 'http://emulator.invalid';
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** The request target as a URL (only its path and query matter; the host is a fixed dummy). */
export function parseRequestTarget(target: string | undefined): URL {
  const raw = target ?? '/';
  try {
    if (raw.startsWith('/')) return new URL(URL_BASE + raw);
    if (/^https?:\/\//i.test(raw)) {
      const absolute = new URL(raw);
      return new URL(URL_BASE + absolute.pathname + absolute.search);
    }
  } catch {
    // fall through to the 400 below
  }
  throw invalidInput('Malformed request URL', 'malformed_url');
}

export function canonicalPath(pathname: string): CanonicalPath {
  const segments: string[] = [];
  for (const encoded of pathname.split('/')) {
    if (encoded === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      throw malformed(`Malformed percent-encoding in path segment "${encoded.slice(0, 80)}"`);
    }
    if (CONTROL_CHARACTERS.test(segment)) throw malformed('The path contains a control character');
    if (segment === '.' || segment === '..') throw malformed('The path contains an encoded dot segment');
    segments.push(segment);
  }
  return { segments, path: `/${segments.map(encodeURIComponent).join('/')}` };
}

function malformed(message: string) {
  return invalidInput(message, 'malformed_path');
}
