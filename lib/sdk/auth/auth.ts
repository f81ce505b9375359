/**
 * Sign-in, the current user, and the stored session (docs/SPEC.md sections 4 and 7).
 */
import { ErrorCodes, invalidArgument, isPlatformError, PlatformError } from '../core/errors';
import type { CallOptions, Transport } from '../core/transport';
import type { LoginResponse, PlatformUser } from '../core/types';
import { apiPath } from '../core/validate';
import type { Session } from '../token/session';
import { browserNavigation, hasWindow } from './browser-navigation';

/** Where `loginWithProvider` sends the visitor: "google" (the default provider), "sso", or another provider. */
export type LoginProvider = 'google' | 'microsoft' | 'facebook' | 'apple' | 'sso' | (string & {});

export type { Session } from '../token/session';

export interface AuthModule {
  /** The signed-in user (`GET User/me`). Rejects with status 401/403 when not signed in. */
  me(options?: CallOptions): Promise<PlatformUser>;
  /** Updates the signed-in user's own fields (`PUT User/me`). */
  updateMe(data: Record<string, unknown>, options?: CallOptions): Promise<PlatformUser>;
  /**
   * Signs in with e-mail and password and stores the returned token. A 401 answer also clears any
   * token held before, so a dead session is not reused.
   * @param turnstileToken - Captcha token, sent as `turnstile_token` when given.
   */
  login(email: string, password: string, turnstileToken?: string, options?: CallOptions): Promise<LoginResponse>;
  /** Same as {@link AuthModule.login}, under the reference client's name. */
  loginViaEmailPassword(
    email: string,
    password: string,
    turnstileToken?: string,
    options?: CallOptions,
  ): Promise<LoginResponse>;
  /** Creates an account; the fields depend on the app's sign-up form. */
  register(payload: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  /** Confirms an e-mail with the one-time code sent to it. */
  verifyOtp(input: { email: string; otpCode: string }, options?: CallOptions): Promise<unknown>;
  /** Sends a new one-time code. */
  resendOtp(email: string, options?: CallOptions): Promise<unknown>;
  /** Sends a password reset e-mail. */
  resetPasswordRequest(email: string, options?: CallOptions): Promise<unknown>;
  /** Sets a new password with the token from the reset e-mail. */
  resetPassword(input: { resetToken: string; newPassword: string }, options?: CallOptions): Promise<unknown>;
  /** Changes the signed-in user's password. */
  changePassword(
    input: { userId: string; currentPassword: string; newPassword: string },
    options?: CallOptions,
  ): Promise<unknown>;
  /** Invites someone to the app with the given role. */
  inviteUser(userEmail: string, role: string, options?: CallOptions): Promise<unknown>;
  /** Uses `token` for later requests; stores it unless `persist` is false. An empty token is ignored. */
  setToken(token: string, persist?: boolean): void;
  /** True while the client holds a user token. */
  hasToken(): boolean;
  /**
   * Signs out: forgets the token (client and both storage keys), then in a browser navigates to the
   * platform's logout (`{appBaseUrl}/api/apps/auth/logout?from_url=...`) so the platform ends its own
   * session too and sends the visitor back to `redirectUrl` (default: this page). The address is
   * forwarded as given, as the reference does: the platform's logout page decides where it may
   * return. Site code passes only its own, same-origin addresses (`safeRedirectTarget`).
   * In Node it only forgets the token.
   */
  logout(redirectUrl?: string): void;
  /**
   * Sends the browser to a provider's sign-in (`{appBaseUrl}/api/apps/auth[/provider]/login`, or the
   * app's SSO); afterwards the visitor returns to `fromUrl` (resolved against this page; default "/").
   */
  loginWithProvider(provider: LoginProvider, fromUrl?: string): void;
  /**
   * The login page address: `{appBase}/login?from_url=<absolute return address>`, as the reference
   * builds it: the app base URL is the app's own (on the platform each app has its own login page).
   */
  loginUrl(nextUrl?: string): string;
  /**
   * Sends the browser to the login page, which returns to `nextUrl` (resolved against this page;
   * default: the current address). Forwarded as given, as the reference does: the platform's login
   * page decides where it may return (an attacker could link to it directly anyway).
   */
  redirectToLogin(nextUrl?: string): void;
  /**
   * True when the server knows the visitor: asks `User/me` even without a stored token (a platform
   * session cookie counts). Never rejects: any failure answers false, as the reference's does, so
   * `if (await isAuthenticated())` is safe. Code that must tell an outage from a signed-out visitor
   * calls `me()` itself (`requiresAuth` does, through {@link checkSession}).
   */
  isAuthenticated(options?: CallOptions): Promise<boolean>;
}

interface AuthContext {
  transport: Transport;
  appId: string;
  /** Absolute app base URL, or "" for the page's own origin. */
  appBaseUrl: string;
  session: Session;
}

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

function requireText(label: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw invalidArgument(`${label} must be a non-empty string`);
  return value;
}

export function createAuthModule({ transport, appId, appBaseUrl, session }: AuthContext): AuthModule {
  const authPath = (action: string) => `${apiPath`/apps/${appId}/auth`}/${action}`;
  const post = (path: string, body: unknown, options?: CallOptions) =>
    transport.request<unknown>({ method: 'POST', path, body }, options);
  const mePath = apiPath`/apps/${appId}/entities/User/me`;

  async function login(email: string, password: string, turnstileToken?: string, options?: CallOptions) {
    const body: Record<string, string> = {
      email: requireText('email', email),
      password: requireText('password', password),
    };
    if (turnstileToken) body.turnstile_token = turnstileToken;
    try {
      const response = await transport.request<LoginResponse>(
        { method: 'POST', path: authPath('login'), body },
        options,
      );
      if (typeof response?.access_token === 'string' && response.access_token) session.setToken(response.access_token);
      return response;
    } catch (error) {
      // docs/SPEC.md 4.5: a 401 during password login logs the client out (the reference's branch never ran).
      if (isPlatformError(error) && error.status === 401) session.clearToken();
      throw error;
    }
  }

  function requireWindow(): void {
    if (!hasWindow()) {
      throw new PlatformError('Login method can only be used in a browser environment', {
        code: ErrorCodes.browserRequired,
      });
    }
  }

  // The page's origin; minimal window stubs (tests, embedded runtimes) may lack `location.origin`.
  const pageOrigin = () => window.location.origin ?? new URL(window.location.href).origin;
  /** `target` resolved against the page's origin, as the reference resolves return addresses. */
  function resolveAgainstPage(label: string, target: string): string {
    try {
      return new URL(target, pageOrigin()).href;
    } catch {
      throw invalidArgument(`${label} is not a valid URL`);
    }
  }
  const base = () => (appBaseUrl || pageOrigin()).replace(/\/+$/, '');

  function loginUrl(nextUrl?: string): string {
    requireWindow();
    const returnTo = nextUrl ? resolveAgainstPage('nextUrl', nextUrl) : window.location.href;
    return `${base()}/login?from_url=${encodeURIComponent(returnTo)}`;
  }

  // Concurrent me() calls share one request (as the reference does); never a cached user.
  let pendingMe: Promise<PlatformUser> | undefined;
  function me(options?: CallOptions): Promise<PlatformUser> {
    if (options) return transport.request({ method: 'GET', path: mePath }, options);
    const request = (pendingMe ??= transport.request<PlatformUser>({ method: 'GET', path: mePath }).finally(() => {
      if (pendingMe === request) pendingMe = undefined;
    }));
    return request;
  }

  return {
    me,
    updateMe: (data, options) => transport.request({ method: 'PUT', path: mePath, body: data }, options),
    login,
    loginViaEmailPassword: login,
    register: async (payload, options) => post(authPath('register'), payload, options),
    verifyOtp: async ({ email, otpCode }, options) =>
      post(
        authPath('verify-otp'),
        { email: requireText('email', email), otp_code: requireText('otpCode', otpCode) },
        options,
      ),
    resendOtp: async (email, options) => post(authPath('resend-otp'), { email: requireText('email', email) }, options),
    resetPasswordRequest: async (email, options) =>
      post(authPath('reset-password-request'), { email: requireText('email', email) }, options),
    resetPassword: async ({ resetToken, newPassword }, options) =>
      post(
        authPath('reset-password'),
        { reset_token: requireText('resetToken', resetToken), new_password: requireText('newPassword', newPassword) },
        options,
      ),
    changePassword: async ({ userId, currentPassword, newPassword }, options) =>
      post(
        authPath('change-password'),
        {
          user_id: requireText('userId', userId),
          current_password: requireText('currentPassword', currentPassword),
          new_password: requireText('newPassword', newPassword),
        },
        options,
      ),
    inviteUser: async (userEmail, role, options) =>
      post(
        apiPath`/apps/${appId}/users/invite-user`,
        { user_email: requireText('userEmail', userEmail), role },
        options,
      ),
    setToken(token, persist) {
      // An empty token changes nothing, as in the reference (not even a me() already in flight).
      if (!token) return;
      pendingMe = undefined;
      session.setToken(token, persist);
    },
    hasToken: () => session.getToken() !== null,
    logout(redirectUrl) {
      pendingMe = undefined;
      session.clearToken();
      if (!hasWindow()) return;
      // As the reference: the address as given; the platform's logout page decides where it may return.
      const fromUrl = redirectUrl || window.location.href;
      browserNavigation.assign(`${base()}/api/apps/auth/logout?from_url=${encodeURIComponent(fromUrl)}`);
    },
    loginWithProvider(provider, fromUrl = '/') {
      requireWindow();
      const returnTo = resolveAgainstPage('fromUrl', fromUrl);
      // Google is the platform's default provider: no path segment. SSO is per app.
      const path =
        provider === 'sso'
          ? `${apiPath`/apps/${appId}/auth/sso`}/login`
          : `/apps/auth${provider === 'google' ? '' : `/${encodeURIComponent(provider)}`}/login`;
      const url = `${base()}/api${path}?app_id=${encodeURIComponent(appId)}&from_url=${encodeURIComponent(returnTo)}`;
      if (window.parent === window) {
        browserNavigation.assign(url);
        return;
      }
      // In a frame (the editor's preview) providers refuse to load: sign in through a popup instead.
      const origin = pageOrigin();
      void import('./login-popup.lazy').then(({ loginViaPopup }) =>
        loginViaPopup(`${url}&popup_origin=${encodeURIComponent(origin)}`, returnTo, origin, browserNavigation.assign),
      );
    },
    loginUrl,
    redirectToLogin(nextUrl) {
      browserNavigation.assign(loginUrl(nextUrl));
    },
    isAuthenticated: (options) => checkSession(() => me(options)).catch(() => false),
  };
}
