/**
 * The policy's header rules (deploy/headers/policy.ts) as the configurations of real servers need
 * them: the headers of every answer, the prefix rules (hashed assets), the one set of headers every
 * other file gets, each page's one address with its other addresses, and the addresses that must
 * answer 404. Every server format (apache.ts, caddy.ts, firebase.ts, vercel.ts, and the nginx snippet
 * in ../formats.ts) is written from this, so they all say what `_headers` says.
 */
import { NOT_FOUND_FILES, type HeaderRule } from '../policy';

/**
 * Files the build writes into out/ for one host or another: configuration, not content. Each
 * server configuration answers them 404 where the server lets it.
 */
export const HOST_CONFIG_FILES: readonly string[] = [
  '_headers',
  '.htaccess',
  'firebase.json',
  'vercel.json',
  'serve.json',
];

export interface PageAddresses {
  /** The HTML file under out/, e.g. `ComingSoon.html`. */
  file: string;
  /** Its one address, as Cloudflare Pages names it: `/`, `/ComingSoon`, `/docs/`. */
  address: string;
  /** Its other addresses (`/ComingSoon/`, `/ComingSoon.html`, `/index.html`). */
  aliases: string[];
}

export interface ServerRules {
  /** The headers of every answer (the `/*` rule): the security headers. */
  siteWide: Record<string, string>;
  /** Prefix rules, e.g. `/_next/static/` with the year-long Cache-Control. */
  prefixes: Array<{ prefix: string; headers: Record<string, string> }>;
  /** The headers every other file gets (every exact rule but the 404 screen's says the same). */
  files: Record<string, string>;
  pages: PageAddresses[];
  /** Every address of the 404 screen's own files (`/404`, `/404.html`, `/_not-found`...). */
  notFoundPaths: string[];
  /**
   * What the 404 screen's files add to `files` (`X-Robots-Tag: noindex`), for servers that cannot
   * answer them 404 and serve them as pages.
   */
  notFoundHeaders: Record<string, string>;
}

/** The one address Cloudflare Pages gives an HTML file. */
export function addressOf(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file.slice(0, -'.html'.length)}`;
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

/**
 * Throws when the rules say something a server configuration written from them could not: exact
 * rules (pages, files) with different headers, or a prefix rule that is not a folder.
 */
export function serverRules(rules: HeaderRule[]): ServerRules {
  const siteWide = rules.find((rule) => rule.path === '/*')?.headers;
  if (!siteWide) throw new Error('server configurations: the rules have no `/*` rule');
  const prefixes = rules
    .filter((rule) => rule.path !== '/*' && rule.path.endsWith('*'))
    .map((rule) => {
      const prefix = rule.path.slice(0, -1);
      if (!prefix.endsWith('/')) throw new Error(`server configurations: ${rule.path} is not a folder prefix`);
      return { prefix, headers: rule.headers };
    });
  const exact = rules.filter((rule) => !rule.path.endsWith('*'));
  const notFound = exact.filter((rule) => rule.file && NOT_FOUND_FILES.includes(rule.file));
  const others = exact.filter((rule) => !notFound.includes(rule));
  const files = others[0]?.headers ?? {};
  const differing = others.find((rule) => !sameHeaders(rule.headers, files));
  if (differing) {
    throw new Error(
      `server configurations: ${differing.path} has other headers than ${others[0]?.path}; they give every file the same`,
    );
  }
  const pageFiles = [...new Set(others.flatMap((rule) => (rule.file ? [rule.file] : [])))];
  const pages = pageFiles.map((file) => {
    const address = addressOf(file);
    const paths = others.filter((rule) => rule.file === file).map((rule) => rule.path);
    return { file, address, aliases: paths.filter((path) => path !== address) };
  });
  const notFoundHeaders = Object.fromEntries(
    Object.entries(notFound[0]?.headers ?? {}).filter(([name, value]) => files[name] !== value),
  );
  return { siteWide, prefixes, files, pages, notFoundPaths: notFound.map((rule) => rule.path), notFoundHeaders };
}

/**
 * Each address of a page that is not its file's own path, mapped to that file: for servers that
 * serve a page under all its addresses with no redirect (Firebase's rewrites, Vercel's, `serve`).
 */
export function pageRewrites(site: ServerRules): Array<{ source: string; destination: string }> {
  return site.pages.flatMap((page) =>
    [page.address, ...page.aliases]
      .filter((path) => path !== `/${page.file}`)
      .map((source) => ({ source, destination: `/${page.file}` })),
  );
}

/** A regular expression matching exactly `text`. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A double-quoted argument of Apache's and Caddy's configuration: both read `\"` as a quote and keep
 * every other backslash as it is (so a regular expression needs no second escaping).
 */
export function quoted(text: string): string {
  return `"${text.replace(/"/g, '\\"')}"`;
}
