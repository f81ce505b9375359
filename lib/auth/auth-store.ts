/**
 * The auth state as a tiny external store. The gate and the 404 screen read it on the first load;
 * the SDK-backed flow (loaded lazily after hydration) writes it. Keeping the SDK out of this file
 * keeps it out of the visitor's first-load JavaScript.
 */
import { useSyncExternalStore } from 'react';

import type { AuthError, AuthState, AuthUser } from './state';

/** What the lazily loaded runtime provides once it runs. */
export interface AuthActions {
  /** Clears the user and the token, then reloads, or goes to `redirectUrl` when it is same-origin. */
  logout(redirectUrl?: string): void;
  /** Sends the visitor to the platform login page and back here afterwards. */
  navigateToLogin(): void;
  /** Runs the settings/user check again. */
  checkAppState(): Promise<void>;
}

export interface AuthSnapshot {
  state: AuthState;
  /** True when an automatic login redirect was held back to avoid a loop (see login-loop-guard). */
  loginRedirectBlocked: boolean;
  /**
   * True while the runtime is asking the platform (from the start of a check to its answer). The
   * runtime starts once the browser is idle after hydration, so "loading" alone says nothing about
   * how long the visitor has been waiting for the platform.
   */
  checking: boolean;
}

let snapshot: AuthSnapshot = { state: { status: 'loading' }, loginRedirectBlocked: false, checking: false };
const listeners = new Set<() => void>();
let actions: AuthActions | null = null;
let actionsWaiters: Array<(value: AuthActions) => void> = [];

export const authStore = {
  get: (): AuthSnapshot => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(next: Partial<AuthSnapshot>): void {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  },
  provideActions(next: AuthActions): void {
    actions = next;
    for (const resolve of actionsWaiters) resolve(next);
    actionsWaiters = [];
  },
  /** Resolves with the actions once the runtime has loaded. */
  whenActions(): Promise<AuthActions> {
    return actions ? Promise.resolve(actions) : new Promise((resolve) => actionsWaiters.push(resolve));
  },
  /** Back to the initial state; for tests. */
  reset(): void {
    snapshot = { state: { status: 'loading' }, loginRedirectBlocked: false, checking: false };
    actions = null;
    actionsWaiters = [];
    for (const listener of listeners) listener();
  },
};

const serverSnapshot: AuthSnapshot = { state: { status: 'loading' }, loginRedirectBlocked: false, checking: false };

export interface UseAuth extends AuthSnapshot {
  user: AuthUser | null;
  isAuthenticated: boolean;
  isLoadingAuth: boolean;
  authError: AuthError | null;
  isAdmin: boolean;
  logout(redirectUrl?: string): void;
  navigateToLogin(): void;
  checkAppState(): Promise<void>;
}

/** The auth state and actions, for any client component. */
export function useAuth(): UseAuth {
  const current = useSyncExternalStore(authStore.subscribe, authStore.get, () => serverSnapshot);
  const { state } = current;
  const user = state.status === 'authenticated' ? state.user : null;
  return {
    ...current,
    user,
    isAuthenticated: user !== null,
    isLoadingAuth: state.status === 'loading',
    authError: state.status === 'error' ? state.error : null,
    isAdmin: user?.role === 'admin',
    logout: (redirectUrl) => void authStore.whenActions().then((a) => a.logout(redirectUrl)),
    navigateToLogin: () => void authStore.whenActions().then((a) => a.navigateToLogin()),
    checkAppState: () => authStore.whenActions().then((a) => a.checkAppState()),
  };
}
