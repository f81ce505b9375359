/**
 * The SDK-backed half of the auth shell: asks the platform for the public settings and, when a
 * token is stored, the current user, in parallel (one round trip), then writes the result into the
 * auth store and acts on it (login redirect, loop guard). Loaded lazily after hydration. A visitor
 * without a token is checked without the platform client (`checkWithoutToken`).
 */
import type { PlatformClient } from '@/lib/sdk';
// Not the index: the first check of a visitor without a token runs this module without the client.
import { safeRedirectTarget, TOKEN_PARAM, tokenStore, type CallOptions } from '@/lib/sdk/without-client';

import { authStore, type AuthActions } from './auth-store';
import { clearLoginRedirectNote, isLoginRedirectLooping, noteLoginRedirect } from './login-loop-guard';
import { mapUnexpectedError, resolveAuthState, type AuthUser, type SettledCall } from './state';

type AuthFlowClient = Pick<PlatformClient, 'publicSettings' | 'auth' | 'getToken'>;

/**
 * The platform has no default timeout; a platform that never answers must not keep the visitor
 * behind a spinner, so the gate gives up after this long and shows the page.
 */
export const AUTH_CALL_TIMEOUT_MS = 10_000;

export const AUTH_MARKS = { start: 'auth:start', resolved: 'auth:gate-resolved' } as const;

function settle<T>(promise: Promise<T>): Promise<SettledCall<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function mark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name);
}

/**
 * Where the login page sends the visitor back to: this page, never with an `access_token` (the
 * config strips it from the address bar first; should that have failed, the token must still not
 * travel to the login page inside `from_url`).
 */
export function loginReturnUrl(href: string = window.location.href): string {
  const url = new URL(href);
  url.searchParams.delete(TOKEN_PARAM);
  return url.href;
}

/** The platform's answer to a check: the settings call, and the user call when a token was stored. */
interface Answer {
  token: string | null;
  settings: SettledCall<unknown>;
  user: SettledCall<AuthUser> | null;
}

/** Acts on the platform's answer: the one place that decides what each answer does. */
function settleAnswer({ token, settings, user }: Answer, redirectToLogin: () => void): void {
  const state = resolveAuthState(settings, user);
  if (state.status === 'error' && state.error.type === 'auth_required') {
    // The stored token (if any) was refused: never send it again, or the visitor would come
    // back from the login page with the same dead session. Cleared through the store that owns
    // it, so the client holding it lets go too.
    tokenStore.clear();
    const looping = isLoginRedirectLooping();
    authStore.set({ state, loginRedirectBlocked: looping });
    if (!looping) redirectToLogin();
  } else {
    // A token the platform did not refuse ends the login round trip, also when it ends in "not
    // registered" for this app: a later login redirect in this tab (another app, after signing
    // out) must then redirect, not be taken for a loop.
    if (token) clearLoginRedirectNote();
    authStore.set({ state, loginRedirectBlocked: false });
  }
}

/** One check, from asking to the state: `checking` and the timing marks around it. */
async function runCheck(ask: () => Promise<Answer>, redirectToLogin: () => void): Promise<void> {
  mark(AUTH_MARKS.start);
  authStore.set({ checking: true });
  try {
    settleAnswer(await ask(), redirectToLogin);
  } catch (error) {
    authStore.set({ state: { status: 'error', error: mapUnexpectedError(error) }, loginRedirectBlocked: false });
  } finally {
    authStore.set({ checking: false });
    mark(AUTH_MARKS.resolved);
  }
}

/**
 * The first check of a visitor who holds no token, made without the platform client: the public
 * settings are all there is to ask (the user call needs a token). Its answer is settled exactly as
 * the client's check settles it; only a login redirect needs the client, which `redirectToLogin`
 * loads. `askSettings` is the settings request (`fetchPublicSettings`).
 */
export function checkWithoutToken(
  askSettings: (options: CallOptions) => Promise<unknown>,
  redirectToLogin: () => void,
): Promise<void> {
  return runCheck(
    async () => ({ token: null, settings: await settle(askSettings({ timeout: AUTH_CALL_TIMEOUT_MS })), user: null }),
    redirectToLogin,
  );
}

export function createAuthFlow(client: AuthFlowClient): AuthActions {
  function redirectToLogin(): void {
    noteLoginRedirect();
    client.auth.redirectToLogin(loginReturnUrl());
  }

  async function askPlatform(): Promise<Answer> {
    const token = client.getToken();
    const [settings, user] = await Promise.all([
      settle(client.publicSettings.get({ timeout: AUTH_CALL_TIMEOUT_MS })),
      token ? settle(client.auth.me({ timeout: AUTH_CALL_TIMEOUT_MS })) : Promise.resolve(null),
    ]);
    return { token, settings, user };
  }

  return {
    checkAppState: () => runCheck(askPlatform, redirectToLogin),
    navigateToLogin: redirectToLogin,
    logout(redirectUrl) {
      authStore.set({ state: { status: 'unauthenticated', settings: null }, loginRedirectBlocked: false });
      // The SDK forwards a return address as given (as the reference does); the site only ever sends
      // the visitor back to itself, so anything off this origin becomes this page.
      const sameOrigin = redirectUrl ? safeRedirectTarget(redirectUrl, window.location.origin) : null;
      client.auth.logout(sameOrigin ?? undefined);
    },
  };
}
