/**
 * The security and caching headers of the static site: one source for the `_headers` file
 * (Netlify, Cloudflare Pages), the nginx snippet and the preview server.
 *
 * Hosts that read `_headers` apply every rule whose path matches, and they differ in what happens
 * when two matching rules set the same header (Cloudflare Pages joins the values with ", ", which
 * for CSP means two policies; Netlify's tooling lets one override the other). So no two rules that
 * can match the same path ever set the same header:
 * - `/*` carries every security header, including the one Content-Security-Policy of the site. It
 *   allows the inline scripts and styles of every page (hosts answer unknown paths, `//x` among
 *   them, with 404.html, and no page-specific rule could name those paths);
 * - `/_next/static/*`, each page path and each other file carry only their Cache-Control;
 * - `/*` also removes `Access-Control-Allow-Origin`, which Cloudflare Pages adds to every response,
 *   and preloads the stylesheets every page links (`Link`, stylesheet-preload.ts): on every answer,
 *   since the 404 screen of an unknown path needs them as much as a page and no page-specific rule
 *   could name those paths either; on a file that is no page it costs its bytes and fetches nothing;
 * `assertDisjointRules` checks this when the headers are generated.
 */

import { stylesheetPreloadHeader, stylesheetsOfEveryPage } from './stylesheet-preload';

export interface HeaderRule {
  /** A path, or a prefix ending in `*`. */
  path: string;
  headers: Record<string, string>;
  /**
   * Headers the host must not send on these paths although it adds them by itself (Cloudflare Pages'
   * `! Name` lines: it sends `Access-Control-Allow-Origin: *` on every response otherwise).
   */
  detach?: string[];
  /** For page rules: the HTML file (relative to out/) that the path serves. */
  file?: string;
}

export interface SitePage {
  /** The HTML file relative to out/, e.g. `ComingSoon.html`. */
  file: string;
  /** The URL paths that serve this HTML file (`/`, `/ComingSoon`, `/ComingSoon/` ...). */
  paths: string[];
  /** CSP hash sources of the page's inline scripts. */
  scriptHashes: string[];
  /** CSP hash sources of the page's inline `<style>` elements (the inlined stylesheet). */
  styleHashes: string[];
  /** The addresses of the page's stylesheets (`<link rel="stylesheet">`), preloaded by a header. */
  stylesheets?: string[];
}

export interface PolicyInput {
  pages: SitePage[];
  /** Files served as they are (robots.txt, the icons, RSC payloads): revalidated on every visit. */
  otherFiles: string[];
  /** Origins the browser talks to over HTTP (the platform, allowlisted overrides). */
  platformOrigins: string[];
  /** Origins of the editor allowed to frame the site. */
  editorOrigins: string[];
  /** Editor preview builds only: origins of the font CSS and files the editor's theme previews load. */
  editorFontOrigins?: string[];
  /**
   * The editor preview build: edit mode loads Tailwind's runtime, which writes the CSS of classes
   * picked in the editor into a `<style>` at run time. No hash can name that text, so the preview
   * allows inline styles (never inline scripts). Production builds leave it off.
   */
  runtimeStyles?: boolean;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** The HTML files of the export that are the 404 screen itself (Next.js writes it twice). */
export const NOT_FOUND_FILES: readonly string[] = ['404.html', '_not-found.html'];

/**
 * Hosts that know only `_headers` (Cloudflare Pages, Netlify, our model) answer `/404` (where
 * `/404.html` redirects to) with the 404 screen and status 200: a soft 404. Search engines must not
 * index it; the server configurations (deploy/headers/servers) do better and answer it 404.
 */
export const NOT_FOUND_PAGE_HEADERS: Readonly<Record<string, string>> = { 'X-Robots-Tag': 'noindex' };

/**
 * Referer carries the origin only, to every destination (and nothing on an https -> http
 * downgrade). After a login redirect the address bar holds `?access_token=...` until a script
 * strips it, and the browser fetches the page's scripts before any script runs; the default
 * (`strict-origin-when-cross-origin`) sends the full URL, token included, to the same origin.
 * `same-origin` would do the same. The site needs no path in any Referer: the platform identifies
 * calls by their Origin header, and the login page gets its return address as `from_url`.
 */
export const REFERRER_POLICY = 'strict-origin';

/** Features a coming-soon page never uses; denying them limits what injected code could do. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

/** The socket.io endpoint of each platform origin, reached over ws(s). */
function socketOrigins(origins: string[]): string[] {
  return origins.map((origin) => origin.replace(/^http(s?):/, 'ws$1:'));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function sources(...values: string[]): string {
  return values.filter(Boolean).join(' ');
}

/**
 * Directives a policy delivered in `<meta http-equiv>` cannot carry (CSP 3, section 3.3): engines
 * ignore them there and log a console error for each.
 */
const HEADER_ONLY_DIRECTIVES = ['frame-ancestors', 'report-uri', 'report-to', 'sandbox'];

function policyDirectives(input: PolicyInput): string[] {
  const platform = unique(input.platformOrigins);
  const scriptHashes = unique(input.pages.flatMap((page) => page.scriptHashes)).sort();
  const styleHashes = unique(input.pages.flatMap((page) => page.styleHashes)).sort();
  const fonts = unique(input.editorFontOrigins ?? []);
  return [
    "default-src 'self'",
    `script-src ${sources("'self'", ...scriptHashes)}`,
    // A hash next to 'unsafe-inline' would switch 'unsafe-inline' off, so the preview lists none.
    `style-src ${input.runtimeStyles ? sources("'self'", "'unsafe-inline'", ...fonts) : sources("'self'", ...styleHashes)}`,
    "img-src 'self' data: blob:",
    `font-src ${sources("'self'", ...fonts)}`,
    `connect-src ${sources("'self'", ...platform, ...socketOrigins(platform))}`,
    `frame-ancestors ${sources("'self'", ...unique(input.editorOrigins))}`,
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ];
}

/** The site's one Content-Security-Policy, as the `/*` header rule sends it. */
export function contentSecurityPolicy(input: PolicyInput): string {
  return policyDirectives(input).join('; ');
}

/**
 * The same policy for `<meta http-equiv="Content-Security-Policy">` in every page, which protects
 * the site where a host sends no headers (Base44 hosting, GitHub Pages, S3): every directive of the
 * header but those a meta policy cannot carry, `frame-ancestors` above all (lib/frame/frame-guard.ts
 * stands in for it there). Where the host does send the header, both apply and the header's is the
 * stricter, so nothing changes.
 */
export function metaContentSecurityPolicy(input: PolicyInput): string {
  return policyDirectives(input)
    .filter((directive) => !HEADER_ONLY_DIRECTIVES.includes(directive.split(' ', 1)[0] ?? ''))
    .join('; ');
}

/**
 * The rules whose headers do not depend on what the pages hold: the protections every answer
 * carries and the caching of the hashed files. buildHeaderRules adds the pages' own (the CSP with
 * their inline scripts' hashes, the stylesheet preload); the benchmark serves the empty Next.js
 * export with these alone, so that it compares pages, not host configurations (tools/bench).
 */
export function siteWideRules(): [HeaderRule, HeaderRule] {
  return [
    {
      path: '/*',
      headers: {
        'Referrer-Policy': REFERRER_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Permissions-Policy': PERMISSIONS_POLICY,
        'Cross-Origin-Opener-Policy': 'same-origin',
      },
      // The site is no API: no other origin may read its responses (Cloudflare Pages sends `*` else).
      detach: ['Access-Control-Allow-Origin'],
    },
    { path: '/_next/static/*', headers: { 'Cache-Control': IMMUTABLE } },
  ];
}

export function buildHeaderRules(input: PolicyInput): HeaderRule[] {
  const preload = stylesheetPreloadHeader(stylesheetsOfEveryPage(input.pages));
  const [everyAnswer, hashedFiles] = siteWideRules();
  const rules: HeaderRule[] = [
    {
      ...everyAnswer,
      headers: {
        'Content-Security-Policy': contentSecurityPolicy(input),
        ...everyAnswer.headers,
        ...(preload === null ? {} : { Link: preload }),
      },
    },
    hashedFiles,
  ];
  for (const page of input.pages) {
    const extra = NOT_FOUND_FILES.includes(page.file) ? NOT_FOUND_PAGE_HEADERS : {};
    for (const path of page.paths) {
      rules.push({ path, file: page.file, headers: { 'Cache-Control': REVALIDATE, ...extra } });
    }
  }
  for (const file of input.otherFiles) rules.push({ path: file, headers: { 'Cache-Control': REVALIDATE } });
  assertDisjointRules(rules);
  return rules;
}

/** True when a `_headers` path pattern (exact, or a prefix ending in `*`) matches a URL path. */
export function rulePathMatches(rulePath: string, urlPath: string): boolean {
  return rulePath.endsWith('*') ? urlPath.startsWith(rulePath.slice(0, -1)) : rulePath === urlPath;
}

/** Whether two rule patterns can match one same URL path. */
function patternsOverlap(a: string, b: string): boolean {
  const prefixOf = (pattern: string) => (pattern.endsWith('*') ? pattern.slice(0, -1) : pattern);
  if (a.endsWith('*') && b.endsWith('*'))
    return prefixOf(a).startsWith(prefixOf(b)) || prefixOf(b).startsWith(prefixOf(a));
  if (a.endsWith('*')) return b.startsWith(prefixOf(a));
  if (b.endsWith('*')) return a.startsWith(prefixOf(b));
  return a === b;
}

/**
 * Throws when two rules that can match the same path set the same header: hosts merge such pairs
 * differently, so the header a browser gets would depend on the host.
 */
export function assertDisjointRules(rules: HeaderRule[]): void {
  rules.forEach((rule, index) => {
    for (const other of rules.slice(index + 1)) {
      if (!patternsOverlap(rule.path, other.path)) continue;
      const shared = Object.keys(rule.headers).filter((name) =>
        Object.keys(other.headers).some((otherName) => otherName.toLowerCase() === name.toLowerCase()),
      );
      if (shared.length > 0) throw new Error(`_headers: ${rule.path} and ${other.path} both set ${shared.join(', ')}`);
    }
  });
}
