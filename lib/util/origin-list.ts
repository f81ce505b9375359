/**
 * The one parser of comma-separated origin lists (NEXT_PUBLIC_OVERRIDE_ORIGINS,
 * NEXT_PUBLIC_EDITOR_ORIGINS, NEXT_PUBLIC_EDITOR_FONT_ORIGINS).
 *
 * Only bare http(s) origins are accepted. A wildcard or `null` would reopen exactly the hole an
 * allowlist closes (`null` is the origin of sandboxed and file:// pages, which anyone can create; a
 * `*` host survives URL parsing but never matches), and an entry with a path, query or credentials
 * is almost certainly a mistake: origins never carry one, so it could never match and would fail
 * silently. Dropped entries are returned with the reason, for a build-time or development warning.
 */

export interface ParsedOriginList {
  /** The accepted origins, normalised (scheme://host[:port]), without duplicates, in list order. */
  origins: string[];
  rejected: { entry: string; reason: string }[];
}

export function parseOriginList(raw: string | undefined): ParsedOriginList {
  const result: ParsedOriginList = { origins: [], rejected: [] };
  if (!raw) return result;
  for (const piece of raw.split(',')) {
    const entry = piece.trim();
    if (!entry) continue;
    const checked = checkOrigin(entry);
    if ('reason' in checked) result.rejected.push({ entry, reason: checked.reason });
    else if (!result.origins.includes(checked.origin)) result.origins.push(checked.origin);
  }
  return result;
}

function checkOrigin(entry: string): { origin: string } | { reason: string } {
  if (entry === '*' || entry === 'null') return { reason: 'wildcards and the opaque origin are never allowed' };
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return { reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { reason: 'only http and https origins are allowed' };
  if (url.hostname.includes('*')) return { reason: 'wildcards and the opaque origin are never allowed' };
  if (url.username || url.password) return { reason: 'credentials do not belong in an origin' };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return { reason: 'an origin has no path, query or fragment' };
  }
  return { origin: url.origin };
}
