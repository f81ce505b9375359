/**
 * The allowlist for address-bar overrides of the platform server and app base URL.
 *
 * The reference app let `?server_url=` point the client anywhere, so one crafted link could send the
 * visitor's stored token to a foreign host, or `?app_base_url=` could turn the login redirect into an
 * open redirect. An override is accepted only when it is a bare origin and that exact origin is listed.
 */
import { parseAbsoluteHttpUrl } from '@/lib/util';

/**
 * Returns the override's origin when it is a bare origin (`https://host[:port]`, at most a trailing
 * "/") that `allowedOrigins` lists, else null. A path is refused as firmly as a foreign host: one
 * crafted link with `{allowed origin}/anything` would otherwise route the bearer token and the login
 * redirect to a path of somebody else's choosing on that origin (and be remembered). Queries,
 * fragments (even empty ones) and credentials are refused too: an origin has none.
 */
export function acceptOverrideOrigin(value: unknown, allowedOrigins: readonly string[]): string | null {
  const url = parseAbsoluteHttpUrl(value);
  if (!url || url.href !== `${url.origin}/` || !allowedOrigins.includes(url.origin)) return null;
  return url.origin;
}

/**
 * A base URL the build configures (origin plus an optional path, no trailing slash), or null when the
 * value is not an absolute http(s) URL without query, fragment and credentials. Only the build may
 * name a path: it is the deployer's choice, not a link's.
 */
export function acceptConfiguredBaseUrl(value: unknown): string | null {
  const url = parseAbsoluteHttpUrl(value);
  if (!url || url.search || url.hash || url.href.includes('?') || url.href.includes('#')) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const APP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** An app id from the address bar or storage: letters, digits, "_" and "-", at most 128 characters. */
export function acceptAppId(value: unknown): string | null {
  return typeof value === 'string' && APP_ID_PATTERN.test(value) ? value : null;
}
