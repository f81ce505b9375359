import {
  isSessionRejected,
  mapSettingsError,
  mapUnexpectedError,
  MESSAGES,
  resolveAuthState,
  type AuthUser,
  type SettledCall,
} from '@/lib/auth/state';
import { PlatformError } from '@/lib/sdk';

const forbidden = (reason?: string, message = 'Forbidden by platform') =>
  new PlatformError(message, { status: 403, data: reason ? { message, extra_data: { reason } } : { message } });

describe('public settings error table (docs/SPEC.md section 8)', () => {
  it.each([
    ['403 auth_required', forbidden('auth_required'), { type: 'auth_required', message: 'Authentication required' }],
    [
      '403 user_not_registered',
      forbidden('user_not_registered'),
      { type: 'user_not_registered', message: 'User not registered for this app' },
    ],
    [
      '403 another reason',
      forbidden('app_suspended', 'App is suspended'),
      { type: 'other', reason: 'app_suspended', message: 'App is suspended' },
    ],
    ['403 without a reason', forbidden(undefined, 'Nope'), { type: 'other', message: 'Nope' }],
    [
      '500 with a message',
      new PlatformError('Database down', { status: 500 }),
      { type: 'other', message: 'Database down' },
    ],
    [
      'network failure',
      new PlatformError('Network failure', { code: 'NETWORK_ERROR' }),
      { type: 'other', message: 'Network failure' },
    ],
    [
      'timeout',
      new PlatformError('timeout of 10000 ms exceeded', { code: 'TIMEOUT' }),
      { type: 'other', message: 'timeout of 10000 ms exceeded' },
    ],
    [
      'an error without a message',
      new PlatformError('', { status: 502 }),
      { type: 'other', message: 'Failed to load app' },
    ],
    ['a thrown string', 'boom', { type: 'other', message: 'Failed to load app' }],
  ])('%s', (_label, error, expected) => {
    expect(mapSettingsError(error)).toEqual(expected);
  });

  it('reads the reason only from a 403', () => {
    const error = new PlatformError('Unauthorized', { status: 401, data: { extra_data: { reason: 'auth_required' } } });
    expect(mapSettingsError(error)).toEqual({ type: 'other', message: 'Unauthorized' });
  });

  it('falls back to "An unexpected error occurred" for other failures', () => {
    expect(mapUnexpectedError(new Error(''))).toEqual({ type: 'other', message: MESSAGES.unexpected });
    expect(mapUnexpectedError(undefined)).toEqual({ type: 'other', message: 'An unexpected error occurred' });
    expect(mapUnexpectedError(new TypeError('x is not a function'))).toEqual({
      type: 'other',
      message: 'x is not a function',
    });
  });
});

describe('session rejection', () => {
  it.each([
    [401, true],
    [403, true],
    [404, false],
    [500, false],
    [undefined, false],
  ])('status %s -> %s', (status, expected) => {
    expect(isSessionRejected(new PlatformError('x', { status }))).toBe(expected);
  });
});

describe('auth state machine', () => {
  const settings: SettledCall<unknown> = { ok: true, value: { id: 'app', public_settings: {} } };
  const user: AuthUser = { id: 'u1', email: 'user@example.com', role: 'user' };

  it('without a stored token: unauthenticated', () => {
    expect(resolveAuthState(settings, null)).toEqual({
      status: 'unauthenticated',
      settings: { id: 'app', public_settings: {} },
    });
  });

  it('with a valid token: authenticated with the user', () => {
    expect(resolveAuthState(settings, { ok: true, value: user })).toEqual({
      status: 'authenticated',
      user,
      settings: { id: 'app', public_settings: {} },
    });
  });

  it.each([401, 403])('a %s on the user fetch means auth_required', (status) => {
    expect(resolveAuthState(settings, { ok: false, error: new PlatformError('no', { status }) })).toEqual({
      status: 'error',
      error: { type: 'auth_required', message: 'Authentication required' },
    });
  });

  it('other user fetch failures leave the visitor unauthenticated, not blocked', () => {
    const state = resolveAuthState(settings, { ok: false, error: new PlatformError('Network failure') });
    expect(state.status).toBe('unauthenticated');
  });

  it('a settings failure wins and the user is discarded', () => {
    const state = resolveAuthState({ ok: false, error: forbidden('user_not_registered') }, { ok: true, value: user });
    expect(state).toEqual({
      status: 'error',
      error: { type: 'user_not_registered', message: 'User not registered for this app' },
    });
  });
});
