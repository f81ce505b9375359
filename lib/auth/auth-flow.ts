/**
 * The SDK-backed half of the auth shell: asks the platform for the public settings and, when a
 * token is stored, the current user, in parallel (one round trip), then writes the result into the
 * auth store and acts on it (login redirect, loop guard). Loaded lazily after hydration.
 */
import { safeRedirectTarget, TOKEN_PARAM, tokenStore, type PlatformClient } from '@/lib/sdk';

import { authStore, type AuthActions } from './auth-store';
import { clearLoginRedirectNote, isLoginRedirectLooping, noteLoginRedirect } from './login-loop-guard';
import { mapUnexpectedError, resolveAuthState, type SettledCall } from './state';

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

export function createAuthFlow(client: AuthFlowClient): AuthActions {
  function redirectToLogin(): void {
    noteLoginRedirect();
    client.auth.redirectToLogin(loginReturnUrl());
  }

  async function checkAppState(): Promise<void> {
    mark(AUTH_MARKS.start);
    authStore.set({ checking: true });
    try {
      const token = client.getToken();
      const [settings, user] = await Promise.all([
        settle(client.publicSettings.get({ timeout: AUTH_CALL_TIMEOUT_MS })),
        token ? settle(client.auth.me({ timeout: AUTH_CALL_TIMEOUT_MS })) : Promise.resolve(null),
      ]);
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
    } catch (error) {
      authStore.set({ state: { status: 'error', error: mapUnexpectedError(error) }, loginRedirectBlocked: false });
    } finally {
      authStore.set({ checking: false });
      mark(AUTH_MARKS.resolved);
    }
  }

  return {
    checkAppState,
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
