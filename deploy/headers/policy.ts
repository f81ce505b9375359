/**
 * The security and caching headers of the static site: one source for the `_headers` file
 * (Netlify, Cloudflare Pages), the nginx snippet and the preview server.
 *
 * Hosts that read `_headers` apply every rule whose path matches and combine same-name headers. So
 * the site-wide rule (`/*`) carries the headers common to all responses plus a CSP that allows the
 * inline scripts of every page (unknown paths answer with 404.html, whose scripts must run), and
 * each page's own rule adds a CSP with only that page's hashes. A browser enforces every policy it
 * receives, so on a page the effective policy is that page's own; no rule sets a header another
 * matching rule also sets, apart from the CSP.
 */

export interface HeaderRule {
  /** A path, or a prefix ending in `*`. */
  path: string;
  headers: Record<string, string>;
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
}

export interface PolicyInput {
  pages: SitePage[];
  /** Files served as they are (robots.txt, icon.svg, RSC payloads): revalidated on every visit. */
  otherFiles: string[];
  /** Origins the browser talks to over HTTP (the platform, allowlisted overrides). */
  platformOrigins: string[];
  /** Origins of the editor allowed to frame the site. */
  editorOrigins: string[];
  /** Editor preview builds only: origins of the font CSS and files the editor's theme previews load. */
  editorFontOrigins?: string[];
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Features a coming-soon page never uses; denying them limits what injected code could do. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()', 'autoplay=()', 'camera=()', 'display-capture=()', 'encrypted-media=()',
  'geolocation=()', 'gyroscope=()', 'hid=()', 'magnetometer=()', 'microphone=()', 'midi=()',
  'payment=()', 'publickey-credentials-get=()', 'serial=()', 'usb=()', 'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

/** The socket.io endpoint of each platform origin, reached over ws(s). */
function socketOrigins(origins: string[]): string[] {
  return origins.map((origin) => origin.replace(/^http(s?):/, 'ws$1:'));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

export function contentSecurityPolicy(scriptHashes: string[], input: PolicyInput): string {
  const platform = unique(input.platformOrigins);
  const fonts = unique(input.editorFontOrigins ?? []).join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    // Tailwind's runtime (editor mode only) and the editor overlays add styles at run time.
    `style-src 'self' 'unsafe-inline' ${fonts}`.trim(),
    "img-src 'self' data: blob:",
    `font-src 'self' ${fonts}`.trim(),
    `connect-src 'self' ${[...platform, ...socketOrigins(platform)].join(' ')}`.trim(),
    `frame-ancestors 'self' ${unique(input.editorOrigins).join(' ')}`.trim(),
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ].join('; ');
}

export function buildHeaderRules(input: PolicyInput): HeaderRule[] {
  const allHashes = unique(input.pages.flatMap((page) => page.scriptHashes)).sort();
  const rules: HeaderRule[] = [
    {
      path: '/*',
      headers: {
        'Content-Security-Policy': contentSecurityPolicy(allHashes, input),
        'Referrer-Policy': 'strict-origin-when-cross-origin',
        'X-Content-Type-Options': 'nosniff',
        'Permissions-Policy': PERMISSIONS_POLICY,
        'Cross-Origin-Opener-Policy': 'same-origin',
      },
    },
    { path: '/_next/static/*', headers: { 'Cache-Control': IMMUTABLE } },
  ];
  for (const page of input.pages) {
    for (const path of page.paths) {
      rules.push({
        path,
        file: page.file,
        headers: { 'Content-Security-Policy': contentSecurityPolicy(page.scriptHashes, input), 'Cache-Control': REVALIDATE },
      });
    }
  }
  for (const file of input.otherFiles) rules.push({ path: file, headers: { 'Cache-Control': REVALIDATE } });
  return rules;
}
