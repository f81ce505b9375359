/**
 * Which file, status or redirect a request gets: the rules of Cloudflare Pages (its "auto trailing
 * slash" HTML handling, as its asset server in wrangler 4.164 applies them and the host matrix checks
 * against it on workerd), so `npm start`, the tests and the recommended host answer alike:
 *
 * - `/` serves index.html, `/ComingSoon` serves ComingSoon.html, files are served as they are;
 * - the other names of a page answer 308 to its one address, the query carried along:
 *   `/index.html`, `/index` -> `/`; `/ComingSoon/`, `/ComingSoon.html` -> `/ComingSoon`; `/404.html`
 *   -> `/404`; a folder with an index.html gets its trailing slash;
 * - anything else serves the nearest 404.html with status 404 (index.html with 200 when the export
 *   has no 404.html: Pages then behaves as a single-page host).
 *
 * Files are looked up by the decoded path's non-empty segments (`//ComingSoon` is ComingSoon.html, as
 * wrangler's file lookup and nginx's merge_slashes read it), so `/ComingSoon//` looks for
 * `ComingSoon/.html` and answers 404, as Pages does. A segment `.`/`..` left after decoding (from
 * `%2F`), a NUL or a backslash names no file; the host's own files (`_headers`, `_redirects`,
 * `_worker.js`) are never served.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

import { decodedPathOf, type RequestUrl } from './request-url';

export type HostAnswer = { file: string; status: 200 | 404 } | { redirect: string; status: 308 };

const HOST_FILES = new Set(['_headers', '_redirects', '_worker.js']);

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The file a decoded path names under `root`, or null. */
async function findFile(root: string, decodedPath: string): Promise<string | null> {
  const segments = decodedPath.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.some((segment) => /^\.\.?$|[\\\0]/.test(segment))) return null;
  if (segments.length === 1 && HOST_FILES.has(segments[0] as string)) return null;
  const file = path.join(root, ...segments);
  if (!file.startsWith(root + path.sep)) return null;
  return (await isFile(file)) ? file : null;
}

/**
 * The Location of a redirect to a decoded path: each segment encoded again, the query as it came,
 * and never a leading `//` (or `/\`, `%2F`...), which a browser would read as another host.
 */
export function redirectLocation(decodedPath: string, search: string): string {
  const encoded = decodedPath.split('/').map(encodeURIComponent).join('/');
  return `${encoded}${search}`.replace(/^(\/|%2F|%2f|%5C|%5c|%09|\s|\\)+(.*)/, '/$2');
}

/** The nearest 404.html up the path's folders; without one, index.html as a single-page host does. */
async function notFound(root: string, decodedPath: string): Promise<HostAnswer | null> {
  let folder = decodedPath;
  while (folder) {
    folder = folder.slice(0, folder.lastIndexOf('/'));
    const page = await findFile(root, `${folder}/404.html`);
    if (page) return { file: page, status: 404 };
  }
  const index = await findFile(root, '/index.html');
  return index ? { file: index, status: 200 } : null;
}

/** A path ending in `/`: a folder's index.html, or the one address of a page. */
async function answerFolderPath(root: string, decoded: string, search: string): Promise<HostAnswer | null> {
  const index = await findFile(root, `${decoded}index.html`);
  if (index) return { file: index, status: 200 };
  if (decoded.endsWith('/index/'))
    return { redirect: redirectLocation(decoded.slice(0, -'index/'.length), search), status: 308 };
  if (await findFile(root, decoded.replace(/\/$/, '.html')))
    return { redirect: redirectLocation(decoded.slice(0, -1), search), status: 308 };
  return notFound(root, decoded);
}

/**
 * The answer for a request (GET or HEAD), or null when the export has neither 404.html nor
 * index.html (the server then answers a plain 404).
 */
export async function answerRequest(root: string, { pathname, search }: RequestUrl): Promise<HostAnswer | null> {
  const decoded = decodedPathOf(pathname);
  const redirect = (to: string): HostAnswer => ({ redirect: redirectLocation(to, search), status: 308 });
  if (decoded.endsWith('/')) return answerFolderPath(root, decoded, search);

  const file = await findFile(root, decoded);
  if (file) {
    if (!decoded.endsWith('.html')) return { file, status: 200 };
    const extensionless = decoded.slice(0, -'.html'.length);
    if (extensionless.endsWith('/index')) return redirect(extensionless.replace(/\/index$/, '/'));
    // A page whose extensionless name is a file too keeps its .html address.
    if (extensionless === '/' || (await findFile(root, extensionless))) return { file, status: 200 };
    return redirect(extensionless);
  }
  if (decoded.endsWith('/index')) return redirect(decoded.slice(0, -'index'.length));
  const page = await findFile(root, `${decoded}.html`);
  if (page) return { file: page, status: 200 };
  if (await findFile(root, `${decoded}/index.html`)) return redirect(`${decoded}/`);
  return notFound(root, decoded);
}
