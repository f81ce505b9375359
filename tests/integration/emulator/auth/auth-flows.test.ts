import type { RunningEmulator } from '@/emulator/core/types';
import {
  loginToken,
  SEEDED_ACCOUNTS,
  SEEDED_PASSWORD,
  serviceTokenFor,
  startTestEmulator,
} from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall } from '../api';

let now = Date.parse('2030-01-01T00:00:00Z');
let emulator: RunningEmulator;
let api: ApiCall;

beforeAll(async () => {
  emulator = await startTestEmulator({ clock: () => now });
  api = apiClient(emulator);
});
afterAll(() => emulator.close());

const auth = (appId: string, action: string, json: unknown, token?: string) =>
  api('POST', `/apps/${appId}/auth/${action}`, { json, ...(token ? { token } : {}) });

function lastMailTo(email: string): { subject: string; body: string } {
  const mail = emulator
    .outbox()
    .filter((entry) => entry.to === email)
    .pop();
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return mail;
}

const otpFrom = (email: string) => /\b(\d{6})\b/.exec(lastMailTo(email).body)?.[1] ?? '';
const ticketFrom = (email: string) => /token[^:]*: ([A-Za-z0-9_-]{20,})/.exec(lastMailTo(email).body)?.[1] ?? '';

describe('login', () => {
  it('returns an access token and the user for correct credentials', async () => {
    const { status, body } = await auth('coming-soon', 'login', {
      email: 'USER@example.com',
      password: SEEDED_PASSWORD,
    });
    expect(status).toBe(200);
    expect(typeof body.access_token).toBe('string');
    expect(body.user).toMatchObject({ id: 'user-user', email: 'user@example.com', role: 'user' });
  });

  it('answers 401 with one message for a wrong password and an unknown address', async () => {
    const wrong = await auth('coming-soon', 'login', { email: 'user@example.com', password: 'nope-nope' });
    const unknown = await auth('coming-soon', 'login', { email: 'ghost@example.com', password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toMatchObject({ message: 'Invalid email or password', code: 'invalid_credentials' });
  });

  it('accepts an optional turnstile token but refuses wrong types with 400', async () => {
    const ok = await auth('coming-soon', 'login', {
      email: 'user@example.com',
      password: SEEDED_PASSWORD,
      turnstile_token: 't',
    });
    expect(ok.status).toBe(200);
    for (const body of [
      { email: 'user@example.com', password: 42 },
      { email: 5, password: 'x' },
      { password: SEEDED_PASSWORD },
    ]) {
      expect((await auth('coming-soon', 'login', body)).status).toBe(400);
    }
  });

  it('makes a first-time login on a login-only app a user of that app', async () => {
    const { body } = await auth('members-only', 'login', {
      email: SEEDED_ACCOUNTS.member.email,
      password: SEEDED_PASSWORD,
    });
    const token = body.access_token as string;
    const me = await api('GET', entityPath('members-only', 'User', '/me'), { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: SEEDED_ACCOUNTS.member.email, role: 'user' });
  });
});

describe('registration with an e-mailed code', () => {
  const email = 'newcomer@example.com';

  it('registers, e-mails a code, refuses login until verified, then verifies and logs in', async () => {
    const registered = await auth('coming-soon', 'register', {
      email,
      password: 'a-good-password',
      full_name: 'New Comer',
    });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({
      id: expect.any(String),
      message: 'Registration successful. Please check your email for the verification code.',
      otp_expires_in_minutes: 10,
    });
    expect(lastMailTo(email).subject).toMatch(/verification code/);

    const early = await auth('coming-soon', 'login', { email, password: 'a-good-password' });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ code: 'email_not_verified' });

    const wrong = await auth('coming-soon', 'verify-otp', {
      email,
      otp_code: otpFrom(email) === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'invalid_otp' });

    const verified = await auth('coming-soon', 'verify-otp', { email, otp_code: otpFrom(email) });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      id: registered.body.id,
      access_token: expect.any(String),
      message: 'Email verified successfully. You are now logged in.',
      success: true,
    });
    const own = await api('GET', entityPath('coming-soon', 'User', '/me'), {
      token: verified.body.access_token as string,
    });
    expect(own.body).toMatchObject({ id: registered.body.id, email, full_name: 'New Comer', role: 'user' });

    const login = await auth('coming-soon', 'login', { email, password: 'a-good-password' });
    expect(login.status).toBe(200);
  });

  it('refuses a second registration of a verified address with 400, as the platform does', async () => {
    const { status, body } = await auth('coming-soon', 'register', {
      email: 'user@example.com',
      password: 'whatever-password',
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'user_exists', message: 'A user with this email already exists' });
  });

  it('lets one of two registrations of a new address sent at once win; the other is refused and sends no code', async () => {
    const email = 'twice@example.com';
    const [first, second] = await Promise.all([
      auth('coming-soon', 'register', { email, password: 'first-password-1' }),
      auth('coming-soon', 'register', { email, password: 'second-password-2' }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    expect(loser.body).toMatchObject({ code: 'verification_pending' });
    expect(emulator.outbox().filter((mail) => mail.to === email)).toHaveLength(1);
    await auth('coming-soon', 'verify-otp', { email, otp_code: otpFrom(email) });
    const winnerPassword = first.status === 200 ? 'first-password-1' : 'second-password-2';
    const loserPassword = first.status === 200 ? 'second-password-2' : 'first-password-1';
    expect((await auth('coming-soon', 'login', { email, password: winnerPassword })).status).toBe(200);
    expect((await auth('coming-soon', 'login', { email, password: loserPassword })).status).toBe(401);
  });

  it('refuses weak passwords and invalid addresses with 400', async () => {
    expect((await auth('coming-soon', 'register', { email: 'a@example.com', password: 'short' })).body).toMatchObject({
      code: 'weak_password',
    });
    expect(
      (await auth('coming-soon', 'register', { email: 'not-an-email', password: 'long-enough-1' })).body,
    ).toMatchObject({ code: 'invalid_email' });
  });

  it('resends a fresh code that replaces the old one, and expires codes after ten minutes', async () => {
    const address = 'late@example.com';
    await auth('coming-soon', 'register', { email: address, password: 'a-good-password' });
    const first = otpFrom(address);
    now += 61 * 1000; // codes are sent at most once a minute
    const resent = await auth('coming-soon', 'resend-otp', { email: address });
    expect(resent.status).toBe(200);
    expect(emulator.outbox().filter((mail) => mail.to === address)).toHaveLength(2);
    const second = otpFrom(address);
    const replaced = await auth('coming-soon', 'verify-otp', {
      email: address,
      otp_code: first === second ? 'x' : first,
    });
    expect(replaced.body).toMatchObject({ code: 'invalid_otp' });
    now += 11 * 60 * 1000;
    const expired = await auth('coming-soon', 'verify-otp', { email: address, otp_code: second });
    expect(expired.body).toMatchObject({ code: 'otp_expired' });
  });

  it('answers resend-otp the same way for unknown addresses, so it cannot probe for accounts', async () => {
    const before = emulator.outbox().length;
    const { status, body } = await auth('coming-soon', 'resend-otp', { email: 'nobody@example.com' });
    expect(status).toBe(200);
    expect(body).toHaveProperty('message');
    expect(emulator.outbox()).toHaveLength(before);
  });

  it('locks a code after five wrong attempts with 429', async () => {
    const address = 'guesser@example.com';
    await auth('coming-soon', 'register', { email: address, password: 'a-good-password' });
    const right = otpFrom(address);
    const wrongCode = right === '123456' ? '654321' : '123456';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses.push((await auth('coming-soon', 'verify-otp', { email: address, otp_code: wrongCode })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect((await auth('coming-soon', 'verify-otp', { email: address, otp_code: right })).body).toMatchObject({
      code: 'otp_not_found',
    });
  });
});

describe('password reset and change', () => {
  it('resets a password with the e-mailed token, revoking older tokens and the old password', async () => {
    const address = 'forgetful@example.com';
    await auth('coming-soon', 'register', { email: address, password: 'first-password' });
    await auth('coming-soon', 'verify-otp', { email: address, otp_code: otpFrom(address) });
    const oldToken = await loginToken(emulator, 'coming-soon', address, 'first-password');

    const requested = await auth('coming-soon', 'reset-password-request', { email: address });
    expect(requested.status).toBe(200);
    const unknown = await auth('coming-soon', 'reset-password-request', { email: 'nobody@example.com' });
    expect(unknown.body).toEqual(requested.body);

    const ticket = ticketFrom(address);
    expect(ticket).not.toBe('');
    expect(
      (await auth('coming-soon', 'reset-password', { reset_token: ticket, new_password: 'second-password' })).status,
    ).toBe(200);
    expect(
      (await auth('coming-soon', 'reset-password', { reset_token: ticket, new_password: 'third-password' })).body,
    ).toMatchObject({
      code: 'invalid_reset_token',
    });
    expect((await auth('coming-soon', 'login', { email: address, password: 'first-password' })).status).toBe(401);
    expect((await auth('coming-soon', 'login', { email: address, password: 'second-password' })).status).toBe(200);
    expect((await api('GET', entityPath('coming-soon', 'User', '/me'), { token: oldToken })).status).toBe(401);
  });

  it('expires reset tokens after an hour', async () => {
    await auth('coming-soon', 'reset-password-request', { email: 'user@example.com' });
    const ticket = ticketFrom('user@example.com');
    now += 61 * 60 * 1000;
    const { status } = await auth('coming-soon', 'reset-password', {
      reset_token: ticket,
      new_password: 'never-applied',
    });
    expect(status).toBe(400);
    expect((await auth('coming-soon', 'login', { email: 'user@example.com', password: SEEDED_PASSWORD })).status).toBe(
      200,
    );
  });

  it('changes the own password with the current one and hands out a fresh token', async () => {
    const address = 'changer@example.com';
    await auth('coming-soon', 'register', { email: address, password: 'first-password' });
    const { body } = await auth('coming-soon', 'verify-otp', { email: address, otp_code: otpFrom(address) });
    const token = body.access_token as string;
    const userId = body.id as string;

    const wrongCurrent = await auth(
      'coming-soon',
      'change-password',
      { user_id: userId, current_password: 'nope-nope', new_password: 'next-password' },
      token,
    );
    expect(wrongCurrent.body).toMatchObject({ code: 'invalid_password' });
    const otherUser = await auth(
      'coming-soon',
      'change-password',
      { user_id: 'user-user', current_password: 'first-password', new_password: 'next-password' },
      token,
    );
    expect(otherUser.status).toBe(403);
    const anonymous = await auth('coming-soon', 'change-password', {
      user_id: userId,
      current_password: 'first-password',
      new_password: 'next-password',
    });
    expect(anonymous.status).toBe(401);

    const changed = await auth(
      'coming-soon',
      'change-password',
      { user_id: userId, current_password: 'first-password', new_password: 'next-password' },
      token,
    );
    expect(changed.status).toBe(200);
    expect((await api('GET', entityPath('coming-soon', 'User', '/me'), { token })).status).toBe(401);
    expect(
      (await api('GET', entityPath('coming-soon', 'User', '/me'), { token: changed.body.access_token as string }))
        .status,
    ).toBe(200);
    expect((await auth('coming-soon', 'login', { email: address, password: 'next-password' })).status).toBe(200);
  });
});

describe('tokens', () => {
  it('expire: a token from a week ago gets 401', async () => {
    const token = await loginToken(emulator, 'coming-soon', SEEDED_ACCOUNTS.admin.email);
    expect((await api('GET', entityPath('coming-soon', 'User', '/me'), { token })).status).toBe(200);
    now += 7 * 24 * 60 * 60 * 1000 + 1000;
    const { status, body } = await api('GET', entityPath('coming-soon', 'User', '/me'), { token });
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 'invalid_token' });
  });
});

describe('inviting users', () => {
  const invite = (json: unknown, token?: string) =>
    api('POST', '/apps/invite-only/users/invite-user', { json, ...(token ? { token } : {}) });

  it('lets an admin invite a new address with a role; the invitee sets a password and is registered', async () => {
    const admin = await loginToken(emulator, 'invite-only', SEEDED_ACCOUNTS.admin.email);
    const { status, body } = await invite({ user_email: 'invitee@example.com', role: 'admin' }, admin);
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ email: 'invitee@example.com', role: 'admin' });

    const ticket = ticketFrom('invitee@example.com');
    expect(
      (await auth('invite-only', 'reset-password', { reset_token: ticket, new_password: 'invitee-password' })).status,
    ).toBe(200);
    const token = await loginToken(emulator, 'invite-only', 'invitee@example.com', 'invitee-password');
    const me = await api('GET', entityPath('invite-only', 'User', '/me'), { token });
    expect(me.body).toMatchObject({ email: 'invitee@example.com', role: 'admin' });
  });

  it('registers an existing account that was not registered before (the outsider)', async () => {
    const before = await loginToken(emulator, 'invite-only', SEEDED_ACCOUNTS.outsider.email);
    expect((await api('GET', entityPath('invite-only', 'User', '/me'), { token: before })).status).toBe(403);
    const result = await invite(
      { user_email: SEEDED_ACCOUNTS.outsider.email, role: 'user' },
      serviceTokenFor('invite-only'),
    );
    expect(result.status).toBe(200);
    expect((await api('GET', entityPath('invite-only', 'User', '/me'), { token: before })).status).toBe(200);
  });

  it('accepts the public SDK path as well', async () => {
    const { status } = await api('POST', '/apps/coming-soon/runtime/users/invite-user', {
      json: { user_email: 'sdk-invite@example.com', role: 'user' },
      token: serviceTokenFor('coming-soon'),
    });
    expect(status).toBe(200);
  });

  it('refuses users (403), visitors (401), bad roles (400) and existing members (409)', async () => {
    const user = await loginToken(emulator, 'coming-soon', SEEDED_ACCOUNTS.user.email);
    const path = '/apps/coming-soon/users/invite-user';
    expect((await api('POST', path, { json: { user_email: 'x@example.com', role: 'user' }, token: user })).status).toBe(
      403,
    );
    expect((await api('POST', path, { json: { user_email: 'x@example.com', role: 'user' } })).status).toBe(401);
    const service = serviceTokenFor('coming-soon');
    expect(
      (await api('POST', path, { json: { user_email: 'x@example.com', role: 'owner' }, token: service })).status,
    ).toBe(400);
    expect(
      (await api('POST', path, { json: { user_email: 'user@example.com', role: 'user' }, token: service })).status,
    ).toBe(409);
  });
});

describe('SSO access tokens', () => {
  const sso = (userId: string, token?: string) =>
    api('GET', `/apps/coming-soon/auth/sso/accesstoken/${userId}`, token ? { token } : {});

  it('issues a working user token to the service role', async () => {
    const { status, body } = await sso('user-user', serviceTokenFor('coming-soon'));
    expect(status).toBe(200);
    const me = await api('GET', entityPath('coming-soon', 'User', '/me'), { token: body.access_token as string });
    expect(me.body).toMatchObject({ id: 'user-user' });
  });

  it("refuses admins (403), visitors (401), other apps' service tokens (401) and unknown users (404)", async () => {
    const admin = await loginToken(emulator, 'coming-soon', SEEDED_ACCOUNTS.admin.email);
    expect((await sso('user-user', admin)).status).toBe(403);
    expect((await sso('user-user')).status).toBe(401);
    expect((await sso('user-user', serviceTokenFor('members-only'))).status).toBe(401);
    expect((await sso('user-member', serviceTokenFor('coming-soon'))).status).toBe(404);
  });
});
