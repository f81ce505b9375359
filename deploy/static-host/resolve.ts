/**
 * The path of an HTTP request target, read as static hosts read it. A target starting with `/` is a
 * path up to its query or fragment, so `//x/y` is the path `//x/y` (empty segments are skipped by
 * the resolver, as nginx's merge_slashes does), never a URL of the host `x`, which is what resolving
 * it against a base URL would make of it. An absolute-form target (`GET http://host/path`, as sent to
 * proxies) contributes its path; anything else (`*`, garbage) is the root.
 */
export function pathOfRequestTarget(target: string | undefined): string {
  const raw = target ?? '/';
  if (raw.startsWith('/')) return raw.split(/[?#]/, 1)[0] ?? '/';
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.pathname : '/';
  } catch {
    return '/';
  }
}

/**
 * Decodes a URL path into safe segments, or null when it cannot name a file under the root
 * (bad escapes, NUL bytes, `..`, backslashes: treated like any unknown path).
 */
export function safeSegments(urlPath: string): string[] | null {
  const segments: string[] = [];
  for (const raw of urlPath.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '.' || segment === '..' || /[\\\0/]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}
