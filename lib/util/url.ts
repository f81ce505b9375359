/**
 * URL parsing for every place a URL from outside (address bar, caller argument, storage, build env)
 * decides where the browser goes, where requests are sent, or which origin is trusted.
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

/** The exact origin of an absolute http(s) URL without credentials, or null. */
export function originOf(value: unknown): string | null {
  return parseAbsoluteHttpUrl(value)?.origin ?? null;
}
