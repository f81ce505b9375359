/**
 * Caching as a CDN should do it: Next's hashed assets never change, so browsers may keep them for a
 * year; HTML (and everything else without a content hash) must be revalidated on every visit so a
 * new deploy shows at once.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export function cacheControlFor(urlPath: string): string {
  return urlPath.startsWith('/_next/static/') ? IMMUTABLE : REVALIDATE;
}
