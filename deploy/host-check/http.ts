/**
 * The requests `npm run check:host` makes: one at a time, each bounded in time and size (a host
 * that sends an endless body gets its first `bodyBytes` read, never more), redirects never followed
 * blindly (a redirect is itself something to check), and every way a site can fail to answer
 * turned into a one-line HostCheckError.
 */

/** Why a site cannot be checked at all: unreachable, not an HTML page, a redirect loop. One line. */
export class HostCheckError extends Error {
  override name = 'HostCheckError';
}

export interface Limits {
  /** The most body bytes read from one answer (after decompression); the rest is not read. */
  bodyBytes: number;
  /** The time one request may take, its whole body included. */
  timeoutMs: number;
  /** The most redirects followed from one address. */
  redirects: number;
}

export const DEFAULT_LIMITS: Limits = { bodyBytes: 2 * 1024 * 1024, timeoutMs: 10_000, redirects: 10 };

/** Why an answer's body was read only in part: too large, too slow, or the connection broke. */
export type Cut = 'size' | 'time' | 'connection';

export interface Answer {
  url: string;
  status: number;
  headers: Headers;
  /** The body as UTF-8, at most `bodyBytes` of it. */
  body: string;
  cut: Cut | null;
}

/** How following an address's redirects ended. */
export type ChainEnd =
  | { kind: 'answer'; answer: Answer }
  /** The next address is one the chain has already visited. */
  | { kind: 'loop'; next: string }
  /** More than `redirects` redirects. */
  | { kind: 'too-long'; next: string }
  /** The next address is on another origin, and the chain was not to leave its own. */
  | { kind: 'other-origin'; next: string };

export interface Chain {
  /** Every redirect answer on the way, first to last ([] when the address answered at once). */
  redirects: Answer[];
  end: ChainEnd;
}

/** Duck-typed: fetch's errors may come from another realm (a test runner's), where instanceof fails. */
function reasonOf(error: unknown, limits: Limits): string {
  const failure = error as { name?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  if (failure?.cause?.code) return failure.cause.code;
  if (failure?.name === 'TimeoutError') return `no answer within ${limits.timeoutMs / 1000} s`;
  return failure?.cause?.message ?? failure?.message ?? String(error);
}

/** At most `maxBytes` of the body, decoded as UTF-8; stops reading (and closes) beyond that. */
async function readBounded(response: Response, maxBytes: number): Promise<{ body: string; cut: Cut | null }> {
  const reader = response.body?.getReader();
  if (!reader) return { body: '', cut: null };
  const decoder = new TextDecoder();
  let received = 0;
  let body = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: body + decoder.decode(), cut: null };
      if (received + value.byteLength > maxBytes) {
        body += decoder.decode(value.subarray(0, maxBytes - received));
        await reader.cancel().catch(() => undefined);
        return { body, cut: 'size' };
      }
      received += value.byteLength;
      body += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    return {
      body: body + decoder.decode(),
      cut: (error as Error | null)?.name === 'TimeoutError' ? 'time' : 'connection',
    };
  }
}

/** One GET, redirects not followed. */
export async function request(url: string, limits: Limits = DEFAULT_LIMITS): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(limits.timeoutMs),
      headers: { 'User-Agent': 'check-host (coming-soon site)', Accept: 'text/html,*/*' },
    });
  } catch (error) {
    throw new HostCheckError(`cannot reach ${url}: ${reasonOf(error, limits)}`);
  }
  const { body, cut } = await readBounded(response, limits.bodyBytes);
  return { url, status: response.status, headers: response.headers, body, cut };
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

/**
 * Follows redirects one by one, at most `limits.redirects` of them. Unless `leaveOrigin`, a redirect
 * to another origin ends the chain unfollowed: a check never talks to a host it was not pointed at
 * without saying so.
 */
export async function follow(url: string, limits: Limits, leaveOrigin = false): Promise<Chain> {
  const redirects: Answer[] = [];
  const visited = new Set<string>();
  let current = url;
  for (;;) {
    const answer = await request(current, limits);
    const next = redirectTarget(answer);
    if (next === null) return { redirects, end: { kind: 'answer', answer } };
    redirects.push(answer);
    visited.add(current);
    if (visited.has(next)) return { redirects, end: { kind: 'loop', next } };
    if (redirects.length >= limits.redirects) return { redirects, end: { kind: 'too-long', next } };
    if (!leaveOrigin && new URL(next).origin !== new URL(current).origin) {
      return { redirects, end: { kind: 'other-origin', next } };
    }
    current = next;
  }
}

/** An address as a report shows it: its path and query when on `origin`, else all of it. */
export function shown(url: string, origin?: string): string {
  const parsed = new URL(url);
  return parsed.origin === origin ? `${parsed.pathname}${parsed.search}` : url;
}

/** `a -> b -> c`: the addresses of a chain, its next (unfollowed) one last; paths only on `origin`. */
export function chainText(chain: Chain, origin?: string): string {
  const addresses = chain.redirects.map((answer) => answer.url);
  if (chain.end.kind === 'answer') addresses.push(chain.end.answer.url);
  else addresses.push(chain.end.next);
  return addresses.map((address) => shown(address, origin)).join(' -> ');
}

export interface HomePage {
  answer: Answer;
  /** The redirects on the way from the address given to the page (other origins included). */
  redirects: Answer[];
}

/** The answer for the site's main page, which must be an HTML page; its redirects may change origin. */
export async function fetchHomePage(url: string, limits: Limits): Promise<HomePage> {
  const chain = await follow(url, limits, true);
  if (chain.end.kind === 'loop') throw new HostCheckError(`redirect loop: ${chainText(chain)}`);
  if (chain.end.kind !== 'answer') {
    throw new HostCheckError(`more than ${limits.redirects} redirects from ${url} (last: ${chain.end.next})`);
  }
  const home = chain.end.answer;
  const type = home.headers.get('content-type') ?? '(no Content-Type)';
  if (home.status !== 200 || !/^text\/html\b/i.test(type)) {
    throw new HostCheckError(`${home.url} answered ${home.status} ${type}, not an HTML page`);
  }
  return { answer: home, redirects: chain.redirects };
}
