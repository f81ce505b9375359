/**
 * Same-origin checks for redirects: every place a URL from outside (address bar, caller argument,
 * storage) decides where the browser goes.
 *
 * Each check parses with the WHATWG URL parser, the same one the browser navigates with, and compares
 * the resulting `origin` exactly. String tests such as `startsWith('/')` are not used: `//evil.example`
 * and `/\evil.example` start with "/" yet leave the site, and look-alike hosts defeat prefix matching.
 */

import { parseAbsoluteHttpUrl } from '../../util';

// URL parsing lives in lib/util (config, the frame bridge and the build need it for things that are
// not redirects); re-exported here for the SDK's entry.
export { originOf, parseAbsoluteHttpUrl } from '../../util';

/**
 * Resolves a redirect target against the current origin and returns the absolute URL when it stays
 * on that origin, else null. Relative paths ("/dashboard", "page?x=1") are allowed.
 *
 * @param target - A URL from an untrusted source (argument, query parameter).
 * @param currentOrigin - The page's own origin, e.g. `window.location.origin`.
 */
export function safeRedirectTarget(target: unknown, currentOrigin: string): string | null {
  const base = parseAbsoluteHttpUrl(currentOrigin);
  if (!base || typeof target !== 'string' || target.trim() === '') return null;
  let resolved: URL;
  try {
    resolved = new URL(target, base.origin);
  } catch {
    return null;
  }
  if (resolved.origin !== base.origin) return null;
  if (resolved.username !== '' || resolved.password !== '') return null;
  return resolved.href;
}

/** True when {@link safeRedirectTarget} accepts the target. */
export function isSameOriginUrl(target: unknown, currentOrigin: string): boolean {
  return safeRedirectTarget(target, currentOrigin) !== null;
}
