/**
 * The requests `npm run check:host` makes: one at a time, redirects never followed blindly (a
 * redirect is itself something to check), a time limit on each, and every way a site can fail to
 * answer turned into a one-line HostCheckError.
 */

/** Why a site cannot be checked at all: unreachable, not an HTML page, a redirect loop. One line. */
export class HostCheckError extends Error {
  override name = 'HostCheckError';
}

export interface Answer {
  url: string;
  status: number;
  headers: Headers;
  body: string;
}

export interface FollowedAnswer extends Answer {
  /** Every address that redirected on the way, first to last ([] when none did). */
  redirects: string[];
}

const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 10;

/** Duck-typed: fetch's errors may come from another realm (a test runner's), where instanceof fails. */
function reasonOf(error: unknown): string {
  const failure = error as { name?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  if (failure?.cause?.code) return failure.cause.code;
  if (failure?.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  return failure?.cause?.message ?? failure?.message ?? String(error);
}

/** One request, redirects not followed. */
export async function request(url: string): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { 'User-Agent': 'check-host (coming-soon site)', Accept: 'text/html,*/*' },
    });
  } catch (error) {
    throw new HostCheckError(`cannot reach ${url}: ${reasonOf(error)}`);
  }
  const body = await response.text().catch(() => '');
  return { url, status: response.status, headers: response.headers, body };
}

/** The Location of a redirect answer, resolved against its URL; null for any other answer. */
export function redirectTarget(answer: Answer): string | null {
  const location = answer.headers.get('location');
  if (answer.status < 300 || answer.status > 399 || location === null) return null;
  try {
    return new URL(location, answer.url).href;
  } catch {
    throw new HostCheckError(`${answer.url} redirects to an invalid address: ${location}`);
  }
}

/** Follows redirects one by one; a loop or too long a chain is a HostCheckError naming the chain. */
export async function follow(url: string): Promise<FollowedAnswer> {
  const redirects: string[] = [];
  let current = url;
  for (;;) {
    const answer = await request(current);
    const next = redirectTarget(answer);
    if (next === null) return { ...answer, redirects };
    redirects.push(current);
    if (redirects.includes(next)) throw new HostCheckError(`redirect loop: ${[...redirects, next].join(' -> ')}`);
    if (redirects.length >= MAX_REDIRECTS) {
      throw new HostCheckError(`more than ${MAX_REDIRECTS} redirects from ${url} (last: ${next})`);
    }
    current = next;
  }
}

/** The answer for the site's main page, which must be an HTML page. */
export async function fetchHomePage(url: string): Promise<FollowedAnswer> {
  const home = await follow(url);
  const type = home.headers.get('content-type') ?? '(no Content-Type)';
  if (home.status !== 200 || !/^text\/html\b/i.test(type)) {
    throw new HostCheckError(`${home.url} answered ${home.status} ${type}, not an HTML page`);
  }
  return home;
}
