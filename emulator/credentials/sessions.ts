import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';

import { ownValue } from '../util/own';
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
 * Ended sessions are kept with the data (the store's `sessions` section), so with a data dir a
 * logged-out token stays refused after a restart, until it would have expired anyway.
 */

export const SESSION_COOKIE = 'base44_emulator_session';
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const RANDOM_BYTES = 16;

export class SessionRegistry {
  private readonly key: Buffer;

  constructor(
    secret: string,
    /** Ended session id -> when its last token expires (ms since the epoch); the store keeps it. */
    private readonly ended: Record<string, number>,
    private readonly nowMs: () => number,
  ) {
    this.key = createHmac('sha256', secret).update('emulator session id key').digest();
  }

  start(): string {
    const random = randomBytes(RANDOM_BYTES);
    return Buffer.concat([random, this.tag(random)]).toString('base64url');
  }

  /** Ends an issued session; false (nothing stored) for an id this emulator never issued. */
  end(sessionId: string): boolean {
    if (!this.isIssued(sessionId)) return false;
    this.forgetExpired();
    this.ended[sessionId] = this.nowMs() + ACCESS_TOKEN_TTL_SECONDS * 1000;
    return true;
  }

  isEnded(sessionId: string): boolean {
    return ownValue(this.ended, sessionId) !== undefined;
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

  private forgetExpired(): void {
    const now = this.nowMs();
    for (const [id, until] of Object.entries(this.ended)) if (until <= now) delete this.ended[id];
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
