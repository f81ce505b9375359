import { stat } from 'node:fs/promises';
import path from 'node:path';

export interface ResolvedFile {
  file: string;
  status: 200 | 404;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

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

/**
 * Maps a request path to a file in a Next.js static export the way static hosts do: `/` ->
 * index.html, `/Page` and `/Page/` -> Page.html (or Page/index.html), files as they are, and
 * everything else -> 404.html with status 404.
 */
export async function resolveStaticFile(root: string, urlPath: string): Promise<ResolvedFile> {
  const notFound: ResolvedFile = { file: path.join(root, '404.html'), status: 404 };
  const segments = safeSegments(urlPath);
  // Host configuration is not content: hosts never serve their _headers file.
  if (!segments || segments[0] === '_headers') return notFound;

  const base = path.join(root, ...segments);
  const candidates =
    segments.length === 0
      ? [path.join(root, 'index.html')]
      : urlPath.endsWith('/')
        ? [`${base}.html`, path.join(base, 'index.html')]
        : [base, `${base}.html`, path.join(base, 'index.html')];

  for (const candidate of candidates) {
    // path.join normalises; make sure nothing escaped the root all the same.
    if (!candidate.startsWith(root + path.sep) && candidate !== root) continue;
    if (await isFile(candidate)) return { file: candidate, status: 200 };
  }
  return notFound;
}
