import { IMMUTABLE, REVALIDATE } from '../headers/policy';

/**
 * The fallback when an export has no `_headers` file (e.g. one built by plain `next build`), cached
 * as a CDN should: Next's hashed assets never change, so browsers may keep them for a year; HTML
 * (and everything else without a content hash) is revalidated on every visit so a new deploy shows
 * at once.
 */
export function cacheControlFor(urlPath: string): string {
  return urlPath.startsWith('/_next/static/') ? IMMUTABLE : REVALIDATE;
}
