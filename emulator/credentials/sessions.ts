import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';

import { ACCESS_TOKEN_TTL_SECONDS } from './tokens';

/**
 * The emulator's own login session, like the platform's HTTP-only session cookie. Every login
 * (API or login page) starts a new session: its id travels in the access token (`sid`) and in the
 * cookie. `{url}/api/apps/auth/logout` ends the session named by the cookie, and with it every
 * token issued in it, which the reference client relies on when it navigates there on logout.
 *
 * Session ids come only from the server. A cookie sent to a login is never adopted (a page on any
 * local port can plant one, since cookies are not separated by port; adopting it would let the
 * planter's logout end the victim's session). Each id is 16 random bytes and 16 bytes of their
 * HMAC, so logout ends only ids this emulator issued and forged cookies cannot grow the list.
 *
 * Ended sessions are kept with the data (a store row each), so with a data dir a logged-out token
 * stays refused after a restart, until it would have expired anyway.
 */

export const SESSION_COOKIE = 'base44_emulator_session';
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const RANDOM_BYTES = 16;

/** The ended sessions as the store holds them: id -> when its last token expires (ms since the epoch). */
export interface EndedSessions {
  isSessionEnded(sessionId: string): boolean;
  endedSessions(): Iterable<[string, number]>;
}

/** Where a logout's changes go: a store change (the store's `StoreChange` has these operations). */
export interface EndedSessionWrites {
  endSession(sessionId: string, until: number): void;
  forgetEndedSession(sessionId: string): void;
}

export class SessionRegistry {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly ended: EndedSessions,
    private readonly nowMs: () => number,
  ) {
    this.key = createHmac('sha256', secret).update('emulator session id key').digest();
  }

  start(): string {
    const random = randomBytes(RANDOM_BYTES);
    return Buffer.concat([random, this.tag(random)]).toString('base64url');
  }

  /**
   * Stages ending an issued session (and forgetting those whose tokens have all expired) into
   * `writes`; stages nothing for an id this emulator never issued.
   */
  end(sessionId: string, writes: EndedSessionWrites): void {
    if (!this.isIssued(sessionId)) return;
    const now = this.nowMs();
    for (const [id, until] of this.ended.endedSessions()) if (until <= now) writes.forgetEndedSession(id);
    writes.endSession(sessionId, now + ACCESS_TOKEN_TTL_SECONDS * 1000);
  }

  isEnded(sessionId: string): boolean {
    return this.ended.isSessionEnded(sessionId);
  }

  private isIssued(sessionId: string): boolean {
    if (!SESSION_ID.test(sessionId)) return false;
    const bytes = Buffer.from(sessionId, 'base64url');
    if (bytes.length !== 2 * RANDOM_BYTES || bytes.toString('base64url') !== sessionId) return false;
    return timingSafeEqual(bytes.subarray(RANDOM_BYTES), this.tag(bytes.subarray(0, RANDOM_BYTES)));
  }

  private tag(random: Buffer): Buffer {
    return createHmac('sha256', this.key).update(random).digest().subarray(0, RANDOM_BYTES);
  }
}

/** The session id from the request's cookie, if it carries a well-formed one. */
export function sessionFromCookie(headers: IncomingHttpHeaders): string | null {
  const value = parseCookie(headers.cookie ?? '')[SESSION_COOKIE];
  return value !== undefined && SESSION_ID.test(value) ? value : null;
}

/** HTTP-only, same-site Lax: sent on the top-level navigation to logout, never readable by pages. */
export function sessionCookie(sessionId: string): string {
  return serializeCookie(SESSION_COOKIE, sessionId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    maxAge: ACCESS_TOKEN_TTL_SECONDS,
  });
}

export function clearedSessionCookie(): string {
  return serializeCookie(SESSION_COOKIE, '', { path: '/', httpOnly: true, sameSite: 'lax', maxAge: 0 });
}
