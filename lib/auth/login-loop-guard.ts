/**
 * Keeps a dead or rejected session from bouncing the visitor between the site and the login page.
 *
 * Before an automatic redirect to the login page we note the time in sessionStorage (per tab). If
 * the visitor is back and the platform still wants a login within the window, the login round trip
 * failed: we do not redirect again by ourselves, we show a screen with a sign-in button instead.
 * A successful sign-in clears the note.
 */
import { readStorage, removeStorage, writeStorage } from '@/lib/util';

const KEY = 'coming-soon.login-redirect-at';
export const LOOP_WINDOW_MS = 2 * 60 * 1000;

/** True when an automatic redirect now would repeat one that just failed. */
export function isLoginRedirectLooping(now = Date.now()): boolean {
  const raw = readStorage(KEY, 'sessionStorage');
  const at = raw ? Number(raw) : NaN;
  return Number.isFinite(at) && now - at >= 0 && now - at < LOOP_WINDOW_MS;
}

export function noteLoginRedirect(now = Date.now()): void {
  // Without storage the guard cannot work; the redirect still happens once per page load.
  writeStorage(KEY, String(now), 'sessionStorage');
}

export function clearLoginRedirectNote(): void {
  removeStorage(KEY, 'sessionStorage');
}
