import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';

import { ACCESS_TOKEN_TTL_SECONDS } from './tokens';

/**
 * The emulator's own login session, like the platform's HTTP-only session cookie. Every login
 * (API or login page) belongs to a session: its id travels in the access token (`sid`) and in the
 * cookie. `{url}/api/apps/auth/logout` ends the session named by the cookie, and with it every
 * token issued in it, which the reference client relies on when it navigates there on logout.
 *
 * Ended sessions are remembered in memory until their tokens would have expired anyway; with a
 * data dir, a restart forgets them (documented in emulator/README.md).
 */

export const SESSION_COOKIE = 'base44_emulator_session';
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export class SessionRegistry {
  /** Ended session id -> when its last token expires (ms since the epoch). */
  private readonly ended = new Map<string, number>();

  constructor(private readonly nowMs: () => number) {}

  start(): string {
    return randomBytes(32).toString('base64url');
  }

  end(sessionId: string): void {
    this.ended.set(sessionId, this.nowMs() + ACCESS_TOKEN_TTL_SECONDS * 1000);
    this.forgetExpired();
  }

  isEnded(sessionId: string): boolean {
    return this.ended.has(sessionId);
  }

  private forgetExpired(): void {
    const now = this.nowMs();
    for (const [id, until] of this.ended) if (until <= now) this.ended.delete(id);
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
