/**
 * How the shell's runtime starts asking the platform (docs/PERFORMANCE.md, "Why the TBT was high").
 *
 * A visitor who holds a token gets the platform client and its check, as always: the settings and
 * the user, in parallel. A visitor without one (most visitors, and every first visit) needs only the
 * app's public settings: they are asked without a client (`fetchPublicSettings`), and the client,
 * most of the runtime's code and its start-up work, is loaded only if the answer calls for it (a
 * login redirect) or someone acts (signs in, logs out, checks again). What the visitor sees and the
 * platform hears is the same either way: the settings request, then the same state.
 */
import { checkWithoutToken } from '@/lib/auth/auth-flow';
import { authStore, type AuthActions } from '@/lib/auth/auth-store';
import { mapUnexpectedError } from '@/lib/auth/state';
import { fetchPublicSettings, hasStartupToken } from '@/lib/sdk/without-client';

import { nextTask } from './main-thread';
import { platformOptions } from './platform-options';

let platformFlow: Promise<AuthActions> | undefined;

/**
 * The client-backed actions, loaded and made once, and provided to the auth store. Loading the
 * chunk, making the client and what follows run as separate tasks (each is long on a slow phone).
 */
function loadPlatformFlow(): Promise<AuthActions> {
  platformFlow ??= import('./platform-flow')
    .then(async ({ createPlatformFlow }) => {
      await nextTask();
      const actions = createPlatformFlow();
      authStore.provideActions(actions);
      await nextTask();
      return actions;
    })
    .catch((failure: unknown) => {
      // Offline, or a deploy replaced the chunk: the next call tries again, once this one is over.
      platformFlow = undefined;
      throw failure;
    });
  return platformFlow;
}

/** A visitor with a token: the client's check, as before. A chunk that fails to load leaves the page shown. */
function checkWithClient(): void {
  loadPlatformFlow().then(
    (actions) => actions.checkAppState(),
    (failure: unknown) => authStore.set({ state: { status: 'error', error: mapUnexpectedError(failure) } }),
  );
}

/** The login redirect the settings called for; if the client cannot load, the sign-in screen offers it again. */
function redirectToLogin(): void {
  loadPlatformFlow().then(
    (actions) => actions.navigateToLogin(),
    () => authStore.set({ loginRedirectBlocked: true }),
  );
}

/** Starts the first check of this page load. */
export function startAuth(): void {
  if (hasStartupToken()) {
    checkWithClient();
    return;
  }
  // A failed load is tried again at the next call (loadPlatformFlow forgets it).
  authStore.provideActionsOnDemand(() => void loadPlatformFlow().catch(() => undefined));
  void checkWithoutToken((call) => fetchPublicSettings(platformOptions(), call), redirectToLogin);
}

/** Forgets the loaded flow; for tests. */
export function resetStartAuth(): void {
  platformFlow = undefined;
}
