/**
 * The auth module's calls about who is signed in: the current user (one shared request at a time),
 * password login, and the token the client holds.
 */
import { isPlatformError } from '../core/errors';
import type { CallOptions, Transport } from '../core/transport';
import type { LoginResponse, PlatformUser } from '../core/types';
import { apiPath, requireText } from '../core/validate';
import type { Session } from '../token/session';
import type { AuthModule } from './auth-types';

export type SessionCalls = Pick<
  AuthModule,
  'me' | 'updateMe' | 'login' | 'loginViaEmailPassword' | 'setToken' | 'hasToken' | 'isAuthenticated'
> & {
  /** Forgets the token (client and storage) and any `me()` in flight: the identity is gone. */
  signOut(): void;
};

/**
 * Asks `me` whether the visitor is signed in: true, false for 401/403, and rejects for anything else
 * (network, 5xx), because an outage says nothing about the session. `requiresAuth` uses it so that an
 * outage does not send a signed-in visitor to the login page.
 */
export async function checkSession(me: () => Promise<unknown>): Promise<boolean> {
  try {
    await me();
    return true;
  } catch (error) {
    if (isPlatformError(error) && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}

interface SessionCallsContext {
  transport: Transport;
  appId: string;
  session: Session;
}

export function createSessionCalls({ transport, appId, session }: SessionCallsContext): SessionCalls {
  const mePath = apiPath`/apps/${appId}/entities/User/me`;

  // Concurrent me() calls share one request (as the reference does); never a cached user.
  let pendingMe: Promise<PlatformUser> | undefined;
  function me(options?: CallOptions): Promise<PlatformUser> {
    if (options) return transport.request({ method: 'GET', path: mePath }, options);
    const request = (pendingMe ??= transport.request<PlatformUser>({ method: 'GET', path: mePath }).finally(() => {
      if (pendingMe === request) pendingMe = undefined;
    }));
    return request;
  }

  async function login(email: string, password: string, turnstileToken?: string, options?: CallOptions) {
    const body: Record<string, string> = {
      email: requireText('email', email),
      password: requireText('password', password),
    };
    if (turnstileToken) body.turnstile_token = turnstileToken;
    try {
      const path = `${apiPath`/apps/${appId}/auth`}/login`;
      const response = await transport.request<LoginResponse>({ method: 'POST', path, body }, options);
      if (typeof response?.access_token === 'string' && response.access_token) session.setToken(response.access_token);
      return response;
    } catch (error) {
      // docs/SPEC.md 4.5: a 401 during password login logs the client out (the reference's branch never ran).
      if (isPlatformError(error) && error.status === 401) session.clearToken();
      throw error;
    }
  }

  return {
    me,
    updateMe: (data, options) => transport.request({ method: 'PUT', path: mePath, body: data }, options),
    login,
    loginViaEmailPassword: login,
    setToken(token, persist) {
      // An empty token changes nothing, as in the reference (not even a me() already in flight).
      if (!token) return;
      pendingMe = undefined;
      session.setToken(token, persist);
    },
    hasToken: () => session.getToken() !== null,
    isAuthenticated: (options) => checkSession(() => me(options)).catch(() => false),
    signOut() {
      pendingMe = undefined;
      session.clearToken();
    },
  };
}
