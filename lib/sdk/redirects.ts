/**
 * URL checks for every place a URL from outside (address bar, caller argument, storage) decides where
 * the browser goes or where requests are sent.
 *
 * Each check parses with the WHATWG URL parser, the same one the browser navigates with, and compares
 * the resulting `origin` exactly. String tests such as `startsWith('/')` are not used: `//evil.example`
 * and `/\evil.example` start with "/" yet leave the site, and look-alike hosts defeat prefix matching.
 */

/**
 * Parses an absolute http(s) URL without credentials, or returns null.
 * Relative and protocol-relative input is rejected because there is no base to resolve it against.
 */
export function parseAbsoluteHttpUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // `https://trusted.example@evil.example` shows a trusted name but goes elsewhere; refuse any userinfo.
  if (url.username !== '' || url.password !== '') return null;
  return url;
}

/** The exact origin of an absolute http(s) URL, or null. */
export function originOf(value: unknown): string | null {
  return parseAbsoluteHttpUrl(value)?.origin ?? null;
}

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
