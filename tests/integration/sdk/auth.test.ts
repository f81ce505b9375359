/**
 * The auth module against the emulator: the current user, login (and its 401 branch), the whole
 * registration / OTP / reset / change-password round trip, invitations and the token state.
 */
import { checkSession } from '@/lib/sdk/auth/auth';
import { createClient } from '@/lib/sdk/client/create-client';
import { ErrorCodes, isPlatformError } from '@/lib/sdk/core/errors';
import { loginToken, SEEDED_ACCOUNTS, SEEDED_APPS, SEEDED_PASSWORD } from '@/tests/support/emulator';

import { clientFor, closedPort, rejectionOf, signedInClient, startEmulatorForSuite } from './harness';

const platform = startEmulatorForSuite();

/** The last e-mail sent to an address, from the emulator's outbox. */
function lastMailTo(address: string): string {
  const mails = platform.emulator.outbox().filter((mail) => mail.to === address);
  const mail = mails[mails.length - 1];
  if (!mail) throw new Error(`No e-mail to ${address}`);
  return mail.body;
}

function statusOf(error: unknown): number | undefined {
  return isPlatformError(error) ? error.status : undefined;
}

describe('current user', () => {
  it('me returns the signed-in user; updateMe changes its own fields', async () => {
    const client = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
    expect(await client.auth.me()).toMatchObject({
      id: SEEDED_ACCOUNTS.user.id,
      email: SEEDED_ACCOUNTS.user.email,
      role: 'user',
    });
    const updated = await client.auth.updateMe({ nickname: 'uli' });
    expect(updated.nickname).toBe('uli');
    expect((await client.auth.me()).nickname).toBe('uli');
  });

  it('me without a token is refused; on a protected app with the reason auth_required', async () => {
    expect(statusOf(await rejectionOf(clientFor(platform).auth.me()))).toBe(401);
    const error = await rejectionOf(clientFor(platform, { appId: SEEDED_APPS.loginRequired }).auth.me());
    expect(isPlatformError(error) && [error.status, error.code]).toEqual([403, 'auth_required']);
  });
});

describe('login', () => {
  it('returns the token and user and uses the token for later calls', async () => {
    const client = clientFor(platform);
    const response = await client.auth.login(SEEDED_ACCOUNTS.admin.email, SEEDED_PASSWORD);
    expect(response.user).toMatchObject({ email: SEEDED_ACCOUNTS.admin.email, role: 'admin' });
    expect(client.getToken()).toBe(response.access_token);
    expect((await client.auth.me()).email).toBe(SEEDED_ACCOUNTS.admin.email);
  });

  it('accepts an optional turnstile token and keeps the reference name as an alias', async () => {
    const client = clientFor(platform);
    const response = await client.auth.loginViaEmailPassword(
      SEEDED_ACCOUNTS.user.email,
      SEEDED_PASSWORD,
      'captcha-token',
    );
    expect(client.getToken()).toBe(response.access_token);
  });

  it('a 401 logs the client out: the token held before is dropped', async () => {
    const client = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
    expect(client.getToken()).not.toBeNull();
    const error = await rejectionOf(client.auth.login(SEEDED_ACCOUNTS.user.email, 'wrong-password'));
    expect(statusOf(error)).toBe(401);
    expect(client.getToken()).toBeNull();
    expect(statusOf(await rejectionOf(client.auth.me()))).toBe(401);
  });

  it('a failure other than 401 keeps the session', async () => {
    const client = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
    const token = client.getToken();
    const error = await rejectionOf(client.auth.login('not-an-email', 'whatever'));
    expect(statusOf(error)).toBe(400);
    expect(client.getToken()).toBe(token);
  });
});

describe('registration, OTP and passwords', () => {
  const email = 'newcomer@example.com';
  const firstPassword = 'first-password-1';
  const secondPassword = 'second-password-2';
  const thirdPassword = 'third-password-3';

  it('register sends a code; resendOtp a new one; verifyOtp confirms and signs in', async () => {
    const client = clientFor(platform);
    expect(await client.auth.register({ email, password: firstPassword, full_name: 'New Comer' })).toMatchObject({
      otp_expires_in_minutes: 10,
    });
    const firstCode = /code for .+ is (\d{6})/.exec(lastMailTo(email))?.[1];
    await client.auth.resendOtp(email);
    const code = /code for .+ is (\d{6})/.exec(lastMailTo(email))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(firstCode).toMatch(/^\d{6}$/);
    const verified = await client.auth.verifyOtp({ email, otpCode: code as string });
    expect(verified).toMatchObject({ success: true });
    expect(typeof (verified as { access_token?: unknown }).access_token).toBe('string');
  });

  it('resetPasswordRequest e-mails a token that resetPassword accepts', async () => {
    const client = clientFor(platform);
    await client.auth.resetPasswordRequest(email);
    const resetToken = /password: (\S+)/.exec(lastMailTo(email))?.[1];
    expect(resetToken).toBeDefined();
    await client.auth.resetPassword({ resetToken: resetToken as string, newPassword: secondPassword });
    await expect(client.auth.login(email, secondPassword)).resolves.toMatchObject({ user: { email } });
  });

  it('changePassword needs the current password and retires the old one', async () => {
    const client = clientFor(platform);
    const { user } = await client.auth.login(email, secondPassword);
    const wrong = await rejectionOf(
      client.auth.changePassword({ userId: user.id, currentPassword: 'nope', newPassword: thirdPassword }),
    );
    expect(isPlatformError(wrong) && wrong.code).toBe('invalid_password');
    await client.auth.changePassword({ userId: user.id, currentPassword: secondPassword, newPassword: thirdPassword });
    expect(statusOf(await rejectionOf(clientFor(platform).auth.login(email, secondPassword)))).toBe(401);
    await expect(loginToken(platform.emulator, SEEDED_APPS.public, email, thirdPassword)).resolves.toEqual(
      expect.any(String),
    );
  });
});

describe('invitations', () => {
  it('an admin invites with a role; the invitee gets an e-mail', async () => {
    const admin = await signedInClient(platform, SEEDED_ACCOUNTS.admin.email);
    await admin.auth.inviteUser('guest@example.com', 'user');
    expect(lastMailTo('guest@example.com')).toContain('invited');
  });

  it('a plain user may not invite', async () => {
    const user = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
    const error = await rejectionOf(user.auth.inviteUser('other@example.com', 'admin'));
    expect(isPlatformError(error) && [error.status, error.code]).toEqual([403, 'admin_required']);
  });
});

describe('token state outside a browser', () => {
  it('setToken signs the client in; auth.setToken is the same', async () => {
    const token = await loginToken(platform.emulator, SEEDED_APPS.public, SEEDED_ACCOUNTS.user.email);
    const client = clientFor(platform);
    client.auth.setToken(token);
    expect(client.getToken()).toBe(token);
    expect((await client.auth.me()).email).toBe(SEEDED_ACCOUNTS.user.email);
  });

  it('logout only forgets the token when there is no window', async () => {
    const client = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
    expect(() => client.auth.logout('/after')).not.toThrow();
    expect(client.getToken()).toBeNull();
    expect(statusOf(await rejectionOf(client.auth.me()))).toBe(401);
  });

  it('isAuthenticated: true for a live token, false without one or for a dead one', async () => {
    expect(await (await signedInClient(platform, SEEDED_ACCOUNTS.user.email)).auth.isAuthenticated()).toBe(true);
    expect(await clientFor(platform).auth.isAuthenticated()).toBe(false);
    expect(await clientFor(platform, { token: 'dead-token' }).auth.isAuthenticated()).toBe(false);
  });

  it('isAuthenticated resolves false on a network failure, as the reference does (never rejects)', async () => {
    const unreachable = createClient({ serverUrl: `http://127.0.0.1:${await closedPort()}`, appId: 'x', token: 'any' });
    await expect(unreachable.auth.isAuthenticated()).resolves.toBe(false);
  });

  it('checkSession (behind requiresAuth) tells an outage from a signed-out visitor', async () => {
    const unreachable = createClient({ serverUrl: `http://127.0.0.1:${await closedPort()}`, appId: 'x', token: 'any' });
    const error = await rejectionOf(checkSession(() => unreachable.auth.me()));
    expect(isPlatformError(error) && error.code).toBe(ErrorCodes.network);
    expect(await checkSession(() => clientFor(platform).auth.me())).toBe(false);
    const signedIn = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
    expect(await checkSession(() => signedIn.auth.me())).toBe(true);
  });

  it('the login page needs a browser', () => {
    const error = (() => {
      try {
        clientFor(platform).auth.loginUrl();
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isPlatformError(error) && error.code).toBe(ErrorCodes.browserRequired);
    expect(() => clientFor(platform).auth.redirectToLogin()).toThrow(
      'Login method can only be used in a browser environment',
    );
  });
});
