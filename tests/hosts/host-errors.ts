/**
 * Crafted paths some hosts answer with their own error page instead of the site's 404 screen, where
 * no configuration reaches: the request is refused before any rule of ours runs. The visitor flows
 * leave these out on those hosts only (tests/hosts/flows.spec.ts); tests/hosts/servers.spec.ts and
 * tests/hosts/cloudflare.spec.ts check that each answers exactly this, and docs/DEPLOY.md says so.
 */
import type { MatrixHostId } from '../../support/hosts/matrix';

/** A path that is not valid percent-encoding (UTF-8). */
export const UNDECODABLE_PATH = '/%E0%A4%A';
/** A path segment longer than any file name may be. */
export const LONG_PATH = `/${'a'.repeat(4000)}`;

export interface HostOwnError {
  host: MatrixHostId;
  path: string;
  status: number;
  /** What the body is: the host's own page, in a few words. */
  body: RegExp;
  why: string;
}

export const HOST_OWN_ERRORS: readonly HostOwnError[] = [
  {
    host: 'cloudflare',
    path: LONG_PATH,
    status: 502,
    body: /Could not serve static asset/,
    why: "wrangler's dev server cannot look a file name that long up; Pages answers 404 (docs/HOST-DEVIATIONS.md)",
  },
  {
    host: 'caddy',
    path: UNDECODABLE_PATH,
    status: 400,
    body: /^400 Bad Request$/,
    why: "Go's HTTP server refuses the request line before Caddy's routes (and handle_errors) run",
  },
  {
    host: 'firebase',
    path: UNDECODABLE_PATH,
    status: 500,
    body: /^Unexpected error occurred\.$/,
    why: 'superstatic fails to decode the path (URIError) and answers a bare 500',
  },
  {
    host: 'firebase',
    path: LONG_PATH,
    status: 500,
    body: /^Unexpected error occurred\.$/,
    why: 'superstatic fails to look the file up (ENAMETOOLONG) and answers a bare 500',
  },
  {
    host: 'vercel',
    path: UNDECODABLE_PATH,
    status: 400,
    body: /<span>400<\/span>\s*<p>Bad Request<\/p>/,
    why: 'serve answers its own 400 page before any rule (it has no setting for it)',
  },
  {
    host: 'vercel',
    path: LONG_PATH,
    status: 500,
    body: /<span>500<\/span>\s*<p>A server error has occurred<\/p>/,
    why: 'serve fails to look the file up (ENAMETOOLONG) and answers its own 500 page',
  },
];
