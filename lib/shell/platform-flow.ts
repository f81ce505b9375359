/**
 * The page's platform client and the auth flow backed by it: one chunk, which start-auth.ts loads only
 * where the visitor holds a token or the client is needed (a login redirect, an action), and which
 * NavigationTracker reaches for the client once a visitor is signed in (loaded by then).
 */
import { createAuthFlow } from '@/lib/auth/auth-flow';
import type { AuthActions } from '@/lib/auth/auth-store';

import { getPlatformClient } from './platform';

export { getPlatformClient };

export function createPlatformFlow(): AuthActions {
  return createAuthFlow(getPlatformClient());
}
