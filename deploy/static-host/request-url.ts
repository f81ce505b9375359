/**
 * The path and query of an HTTP request target, read as Cloudflare Pages' runtime (workerd) reads
 * it: through the WHATWG URL parser, which resolves dot segments (`/a/../ComingSoon`, `/%2e%2e/x`
 * and `/./x` all lose them), turns `\` into `/`, and keeps `//x/y` a path of this host, never a URL of
 * the host `x`. Browsers send paths already read this way; crafted requests (curl --path-as-is, raw
 * sockets) may not, and the host must not answer them differently.
 */
export interface RequestUrl {
  /** The path, percent-encoded, dot segments resolved, e.g. `/ComingSoon/` or `//evil.example/x`. */
  pathname: string;
  /** The query with its `?`, or ''. A redirect carries it along. */
  search: string;
}

const ROOT: RequestUrl = { pathname: '/', search: '' };

export function requestUrlOf(target: string | undefined): RequestUrl {
  const raw = target ?? '/';
  try {
    // Origin-form (`/path?query`): parsed under a placeholder origin, so `//x` stays a path.
    // Absolute-form (`http://host/path`, as sent to proxies) contributes its path and query.
    const url = raw.startsWith('/') ? new URL(`http://host${raw}`) : new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return ROOT;
    return { pathname: url.pathname, search: url.search };
  } catch {
    // `*`, garbage: the root, as hosts answer them.
    return ROOT;
  }
}

/** The decoded path the host looks files up by; an undecodable path (`/%E0%A4%A`) is kept as it is. */
export function decodedPathOf(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
