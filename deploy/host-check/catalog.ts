/**
 * The checks of `npm run check:host`, in the order it prints them. A check marked `protection` is
 * one docs/DEPLOY.md promises; losing one makes the run fail (exit code 1). A check's `scope` says
 * whether it judges the host (docs/DEPLOY.md's host table has a row for each, support/hosts/host-table.ts)
 * or the build that was deployed (the same on every host).
 */

export const CHECKS = {
  pages: { label: 'Pages of the build', protection: true, scope: 'host' },
  'unknown-path': { label: 'Unknown path shows 404 screen', protection: true, scope: 'host' },
  'soft-404': { label: 'Unknown path not indexed', protection: true, scope: 'host' },
  csp: { label: 'Content-Security-Policy', protection: true, scope: 'host' },
  'frame-ancestors': { label: 'frame-ancestors', protection: true, scope: 'host' },
  'referrer-policy': { label: 'Referrer-Policy', protection: true, scope: 'host' },
  'permissions-policy': { label: 'Permissions-Policy', protection: true, scope: 'host' },
  nosniff: { label: 'X-Content-Type-Options', protection: true, scope: 'host' },
  coop: { label: 'Cross-Origin-Opener-Policy', protection: true, scope: 'host' },
  cors: { label: 'Access-Control-Allow-Origin', protection: true, scope: 'host' },
  'static-caching': { label: 'Caching of /_next/static', protection: false, scope: 'host' },
  'html-caching': { label: 'Caching of HTML', protection: true, scope: 'host' },
  'redirect-query': { label: 'Redirects keep the query', protection: true, scope: 'host' },
  'redirect-end': { label: 'Redirects end', protection: true, scope: 'host' },
  'token-origin': { label: 'Token stays on the site', protection: true, scope: 'host' },
  'local-build': { label: 'Not a local build', protection: true, scope: 'build' },
} as const satisfies Record<string, { label: string; protection: boolean; scope: 'host' | 'build' }>;

export type CheckId = keyof typeof CHECKS;

/** The checks that judge the host, one row each in docs/DEPLOY.md's host table. */
export type HostCheckId = { [Id in CheckId]: (typeof CHECKS)[Id]['scope'] extends 'host' ? Id : never }[CheckId];

export const HOST_CHECK_IDS = (Object.keys(CHECKS) as CheckId[]).filter(
  (id): id is HostCheckId => CHECKS[id].scope === 'host',
);

export interface CheckResult {
  id: CheckId;
  label: string;
  protection: boolean;
  scope: 'host' | 'build';
  kept: boolean;
  /** What the site answered, in a few words (host text included: print it escaped). */
  found: string;
}
