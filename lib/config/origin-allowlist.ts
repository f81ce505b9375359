/**
 * The allowlist for address-bar overrides of the platform server and app base URL.
 *
 * The reference app let `?server_url=` point the client anywhere, so one crafted link could send the
 * visitor's stored token to a foreign host, or `?app_base_url=` could turn the login redirect into an
 * open redirect. An override is accepted only when its exact origin is listed.
 */
import { parseAbsoluteHttpUrl } from '@/lib/sdk/redirects';

/**
 * Parses a comma-separated origin list. Entries that are not bare http(s) origins (paths, queries,
 * credentials, other schemes) are dropped rather than guessed at.
 */
export function parseOriginList(list: string | undefined): string[] {
  if (!list) return [];
  const origins = new Set<string>();
  for (const entry of list.split(',')) {
    const url = parseAbsoluteHttpUrl(entry.trim());
    // A "*" survives URL parsing but would never match: refuse it rather than let a reader believe
    // wildcards work.
    if (url && url.pathname === '/' && !url.search && !url.hash && !url.hostname.includes('*')) origins.add(url.origin);
  }
  return [...origins];
}

/**
 * Returns the override as a normalised base URL (origin plus path, no trailing slash) when its origin
 * is in `allowedOrigins`, else null. Queries and fragments are refused: a base URL never has them.
 */
export function acceptOverrideUrl(value: unknown, allowedOrigins: readonly string[]): string | null {
  const url = parseAbsoluteHttpUrl(value);
  if (!url || url.search || url.hash || !allowedOrigins.includes(url.origin)) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const APP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** An app id from the address bar or storage: letters, digits, "_" and "-", at most 128 characters. */
export function acceptAppId(value: unknown): string | null {
  return typeof value === 'string' && APP_ID_PATTERN.test(value) ? value : null;
}
