/**
 * The auth module's public shape (docs/SPEC.md sections 4 and 7), apart from its parts so each part
 * (session-calls, account-calls.lazy, sign-in-pages) can name the methods it provides.
 */
import type { CallOptions } from '../core/transport';
import type { LoginResponse, PlatformUser } from '../core/types';

/** Where `loginWithProvider` sends the visitor: "google" (the default provider), "sso", or another provider. */
export type LoginProvider = 'google' | 'microsoft' | 'facebook' | 'apple' | 'sso' | (string & {});

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
   * Signs out: forgets the token (client and both storage keys; a storage that refuses is logged, not
   * thrown), then in a browser navigates to the platform's logout
   * (`{appBaseUrl}/api/apps/auth/logout?from_url=...`, a path on this origin without an app base URL)
   * so the platform ends its own session too and sends the visitor back to `redirectUrl` (default:
   * this page; no `from_url` where the window has no address). The address is forwarded as given, as
   * the reference does: the platform's logout page decides where it may return. Site code passes
   * only its own, same-origin addresses (`safeRedirectTarget`). In Node it only forgets the token.
   */
  logout(redirectUrl?: string): void;
  /**
   * Sends the browser to a provider's sign-in (`{appBaseUrl}/api/apps/auth[/provider]/login`, or the
   * app's SSO); afterwards the visitor returns to `fromUrl` (resolved against this page; default "/").
   */
  loginWithProvider(provider: LoginProvider, fromUrl?: string): void;
  /**
   * The login page address, as the reference builds it: `{appBaseUrl}/login?from_url=<return address>`
   * (on the platform each app has its own login page), or the path `/login?from_url=...` on this
   * origin when the client has no app base URL. The return address is `nextUrl` resolved against this
   * page (an absolute one needs no page address), else this page's address.
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
   * session cookie counts). Never rejects: every failure answers false, as the reference's does, so
   * `if (await isAuthenticated())` is safe. Code that must tell an outage from a signed-out visitor
   * calls `me()` itself (`requiresAuth` does, through {@link checkSession}).
   */
  isAuthenticated(options?: CallOptions): Promise<boolean>;
}

/** The account calls, loaded on first use (account-calls.lazy.ts). */
export const ACCOUNT_CALL_NAMES = [
  'register',
  'verifyOtp',
  'resendOtp',
  'resetPasswordRequest',
  'resetPassword',
  'changePassword',
  'inviteUser',
] as const;

export type AccountCalls = Pick<AuthModule, (typeof ACCOUNT_CALL_NAMES)[number]>;
