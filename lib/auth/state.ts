/**
 * The auth state machine and the error table of docs/SPEC.md section 8, free of React and of the SDK so
 * both are easy to test and cheap to ship on the first load.
 */

export type AuthErrorType = 'auth_required' | 'user_not_registered' | 'other';

export interface AuthError {
  type: AuthErrorType;
  message: string;
  /** The platform's `extra_data.reason` when it named one we do not know. */
  reason?: string;
}

/** The fields of the signed-in user the shell relies on; the SDK's user type satisfies it. */
export interface AuthUser {
  id: string;
  email: string;
  role: string;
  full_name?: string;
}

export type AuthState =
  | { status: 'loading' }
  | { status: 'authenticated'; user: AuthUser; settings: unknown }
  | { status: 'unauthenticated'; settings: unknown }
  | { status: 'error'; error: AuthError };

export const MESSAGES = {
  authRequired: 'Authentication required',
  userNotRegistered: 'User not registered for this app',
  failedToLoadApp: 'Failed to load app',
  unexpected: 'An unexpected error occurred',
} as const;

/** The few fields of a failed call the mapping reads (PlatformError has them all). */
interface ErrorLike {
  status?: unknown;
  message?: unknown;
  data?: unknown;
}

function asErrorLike(error: unknown): ErrorLike {
  return typeof error === 'object' && error !== null ? (error as ErrorLike) : {};
}

function messageOf(error: unknown): string {
  const { message } = asErrorLike(error);
  return typeof message === 'string' ? message : '';
}

function statusOf(error: unknown): number | undefined {
  const { status } = asErrorLike(error);
  return typeof status === 'number' ? status : undefined;
}

function reasonOf(error: unknown): string | undefined {
  const { data } = asErrorLike(error);
  if (typeof data !== 'object' || data === null) return undefined;
  const extra = (data as { extra_data?: unknown }).extra_data;
  if (typeof extra !== 'object' || extra === null) return undefined;
  const reason = (extra as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason ? reason : undefined;
}

/** Public settings failed: the table of docs/SPEC.md section 8. */
export function mapSettingsError(error: unknown): AuthError {
  const reason = statusOf(error) === 403 ? reasonOf(error) : undefined;
  if (reason === 'auth_required') return { type: 'auth_required', message: MESSAGES.authRequired };
  if (reason === 'user_not_registered') return { type: 'user_not_registered', message: MESSAGES.userNotRegistered };
  if (reason) return { type: 'other', reason, message: messageOf(error) || MESSAGES.failedToLoadApp };
  return { type: 'other', message: messageOf(error) || MESSAGES.failedToLoadApp };
}

/** Anything that went wrong outside the two platform calls. */
export function mapUnexpectedError(error: unknown): AuthError {
  return { type: 'other', message: messageOf(error) || MESSAGES.unexpected };
}

/** 401 and 403 on `User/me` mean the session is gone; anything else says nothing about it. */
export function isSessionRejected(error: unknown): boolean {
  const status = statusOf(error);
  return status === 401 || status === 403;
}

export type SettledCall<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Decides the state from the two parallel calls: settings first (a failure there wins and the user
 * is discarded), then the user call (absent when no token was stored).
 */
export function resolveAuthState(settings: SettledCall<unknown>, user: SettledCall<AuthUser> | null): AuthState {
  if (!settings.ok) return { status: 'error', error: mapSettingsError(settings.error) };
  if (!user) return { status: 'unauthenticated', settings: settings.value };
  if (user.ok) return { status: 'authenticated', user: user.value, settings: settings.value };
  if (isSessionRejected(user.error)) {
    return { status: 'error', error: { type: 'auth_required', message: MESSAGES.authRequired } };
  }
  return { status: 'unauthenticated', settings: settings.value };
}
