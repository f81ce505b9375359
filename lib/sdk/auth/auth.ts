/**
 * Sign-in, the current user, and the stored session (docs/SPEC.md sections 4 and 7): the module
 * put together from its parts, each in its own file by what it does.
 */
import { lazyMethods } from '../core/lazy-methods';
import type { Transport } from '../core/transport';
import type { Session } from '../token/session';
import { ACCOUNT_CALL_NAMES, type AuthModule } from './auth-types';
import { createSessionCalls } from './session-calls';
import { createSignInPages } from './sign-in-pages';

export type { AuthModule, LoginProvider } from './auth-types';
export { checkSession } from './session-calls';
export type { Session } from '../token/session';

interface AuthContext {
  transport: Transport;
  appId: string;
  /** Absolute app base URL, or "" for paths on the page's own origin. */
  appBaseUrl: string;
  session: Session;
}

export function createAuthModule({ transport, appId, appBaseUrl, session }: AuthContext): AuthModule {
  const { signOut, ...sessionCalls } = createSessionCalls({ transport, appId, session });
  const { leaveThroughLogout, ...signInPages } = createSignInPages({ appId, appBaseUrl });
  return {
    ...sessionCalls,
    ...lazyMethods(
      () => import('./account-calls.lazy').then(({ createAccountCalls }) => createAccountCalls({ transport, appId })),
      ACCOUNT_CALL_NAMES,
    ),
    ...signInPages,
    logout(redirectUrl) {
      signOut();
      leaveThroughLogout(redirectUrl);
    },
  };
}
