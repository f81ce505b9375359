/**
 * Static hosts that know one rule beyond "serve the file": answer what is missing with `404.html` and
 * status 404. No response carries a header of ours (no CSP, frame-ancestors, Referrer-Policy or
 * caching rule; `_headers` is served as a file). Two variants, for the two hosts users reach for:
 *
 * - `github-pages` (the default), GitHub Pages: `/name` also finds `name.html` (its extensionless
 *   lookup, so `/ComingSoon` is the page), `/dir/` finds `dir/index.html`, and `/dir` answers 301 to
 *   `/dir/` when that exists. `/ComingSoon/` is a 404 there (no `ComingSoon/index.html`). It assumes
 *   the export is published without Jekyll (a `.nojekyll` file or an Actions deploy), which would
 *   otherwise drop `_next/`.
 * - `s3`, an S3 bucket's website endpoint (index document `index.html`, error document `404.html`):
 *   keys only, so `/ComingSoon` is a 404 and the page lives at `/ComingSoon.html`; `/dir/` finds
 *   `dir/index.html`, `/dir` answers 302 to `/dir/` when that exists.
 */
import path from 'node:path';

import { fileUnder, startFileHost, type HostRules } from './file-host';
import type { RunningHost } from './types';

export type NotFoundOnlyVariant = 'github-pages' | 's3';

/**
 * What GitHub Pages itself sends on every answer, which no repository setting changes: CORS open to
 * every origin and a ten-minute cache for every file, hashed assets included.
 */
const GITHUB_PAGES_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=600' };

function notFoundOnlyRules(variant: NotFoundOnlyVariant): HostRules {
  return async (root, { raw, segments, search }) => {
    const notFound = { file: path.join(root, '404.html'), status: 404 } as const;
    if (!segments) return notFound;
    if (segments.length === 0) return { file: path.join(root, 'index.html'), status: 200 };
    const folderIndex = await fileUnder(root, [...segments, 'index.html']);
    if (raw.endsWith('/')) return folderIndex ? { file: folderIndex, status: 200 } : notFound;
    const file = await fileUnder(root, segments);
    if (file) return { file, status: 200 };
    if (variant === 'github-pages') {
      const last = segments[segments.length - 1] as string;
      const page = await fileUnder(root, [...segments.slice(0, -1), `${last}.html`]);
      if (page) return { file: page, status: 200 };
    }
    // Built from the segments, never from the raw path: `//host` in a Location is another site.
    const folder = `/${segments.map(encodeURIComponent).join('/')}/`;
    if (folderIndex) return { redirect: `${folder}${search}`, status: variant === 's3' ? 302 : 301 };
    return notFound;
  };
}

export function startNotFoundOnlyHost(options: {
  outDir: string;
  port?: number;
  variant?: NotFoundOnlyVariant;
}): Promise<RunningHost> {
  const variant = options.variant ?? 'github-pages';
  return startFileHost(
    `not-found-only (${variant})`,
    options,
    notFoundOnlyRules(variant),
    variant === 'github-pages' ? GITHUB_PAGES_HEADERS : {},
  );
}
