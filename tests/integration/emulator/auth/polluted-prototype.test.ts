import { createHash, randomBytes } from 'node:crypto';

import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor } from '@/tests/support/emulator';

import { suiteEmulator } from '../api';

/**
 * The emulator's account, ticket and code lookups must not trust inherited properties. Each test
 * plants what a prototype-pollution bug would plant on Object.prototype (the emulator runs in this
 * process, so it sees the same prototype), then tries the takeover over HTTP, and restores it.
 */

const suite = suiteEmulator();
const APP = 'coming-soon';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function withPollutedPrototype<T>(key: string, value: unknown, run: () => Promise<T>): Promise<T> {
  Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true, enumerable: false });
  try {
    return await run();
  } finally {
    delete (Object.prototype as Record<string, unknown>)[key];
  }
}

it('refuses a reset ticket that exists only on Object.prototype: no admin takeover', async () => {
  const forged = randomBytes(32).toString('base64url');
  const ticket = {
    account_id: SEEDED_ACCOUNTS.admin.id,
    app_id: APP,
    expires_at: Date.now() + 3_600_000,
    purpose: 'reset',
  };
  const reset = await withPollutedPrototype(sha256(forged), ticket, () =>
    suite.api('POST', `/apps/${APP}/auth/reset-password`, {
      json: { reset_token: forged, new_password: 'attacker-owns-you' },
    }),
  );
  expect(reset.status).toBe(400);
  expect(reset.body).toMatchObject({ code: 'invalid_reset_token' });
  await expect(loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.admin.email, 'attacker-owns-you')).rejects.toThrow();
  await expect(loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.admin.email)).resolves.toEqual(expect.any(String));
});

it('refuses a verification code that exists only on Object.prototype', async () => {
  const email = 'pending@example.com';
  const registered = await suite.api('POST', `/apps/${APP}/auth/register`, {
    json: { email, password: 'a-long-password' },
  });
  expect(registered.status).toBe(200);
  // Wrong codes until the real one is dropped: from then on the account has no pending code of its own.
  let wrong;
  do {
    wrong = await suite.api('POST', `/apps/${APP}/auth/verify-otp`, { json: { email, otp_code: 'wrong' } });
  } while (wrong.status === 400);
  expect(wrong.status).toBe(429);
  const planted = { code_hash: sha256('123456'), expires_at: Date.now() + 600_000, attempts: 0, app_id: APP };
  const verify = await withPollutedPrototype(email, planted, () =>
    suite.api('POST', `/apps/${APP}/auth/verify-otp`, { json: { email, otp_code: '123456' } }),
  );
  expect(verify.status).toBe(400);
  expect(verify.body).toMatchObject({ code: 'otp_not_found' });
});

it('does not resolve inherited names as accounts when issuing SSO tokens', async () => {
  for (const userId of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    const result = await suite.api('GET', `/apps/${APP}/auth/sso/accesstoken/${userId}`, {
      token: serviceTokenFor(APP),
    });
    expect({ userId, status: result.status }).toEqual({ userId, status: 404 });
  }
});

it('does not accept a token whose account exists only on Object.prototype', async () => {
  const token = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.user.email);
  const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as {
    sub: string;
  };
  expect(claims.sub).toBe(SEEDED_ACCOUNTS.user.id);
  // A user deleted by an admin, then a polluted prototype re-creating its membership, stays locked out.
  const admin = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.admin.email);
  expect(
    (await suite.api('DELETE', `/apps/${APP}/entities/User/${SEEDED_ACCOUNTS.user.id}`, { token: admin })).status,
  ).toBe(200);
  const member = {
    id: SEEDED_ACCOUNTS.user.id,
    email: SEEDED_ACCOUNTS.user.email,
    role: 'admin',
    created_date: '',
    updated_date: '',
    created_by: null,
  };
  const me = await withPollutedPrototype(SEEDED_ACCOUNTS.user.id, member, () =>
    suite.api('GET', `/apps/${APP}/entities/User/me`, { token }),
  );
  expect(me.status).toBe(401);
});

it("refuses multipart parameters named __proto__ instead of letting them become the payload's prototype", async () => {
  const form = new FormData();
  form.append('__proto__', JSON.stringify({ to: 'attacker@example.net' }));
  const called = await suite.api('POST', `/apps/${APP}/integration-endpoints/Core/SendEmail`, { body: form });
  expect(called.status).toBe(400);
  expect(called.body).toMatchObject({ code: 'invalid_parameter_name' });
});

describe('request parameters the caller left out', () => {
  const integration = (name: string) => `/apps/${APP}/integration-endpoints/Core/${name}`;

  it('do not read a planted `to` as the recipient of an e-mail', async () => {
    const token = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.user.email);
    const before = suite.emulator.outbox().length;
    const sent = await withPollutedPrototype('to', 'attacker@example.net', () =>
      suite.api('POST', integration('SendEmail'), { json: { subject: 'Hello', body: 'Hi' }, token }),
    );
    expect(sent.status).toBe(400);
    expect(suite.emulator.outbox()).toHaveLength(before);
  });

  it('do not take a planted `file` as the uploaded file', async () => {
    const token = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.user.email);
    const planted = new File(['planted'], 'planted.txt', { type: 'text/plain' });
    const uploaded = await withPollutedPrototype('file', planted, () =>
      suite.api('POST', integration('UploadFile'), { json: {}, token }),
    );
    expect(uploaded.status).toBe(400);
    expect(uploaded.body).toMatchObject({ code: 'missing_file' });
  });

  it('do not read a planted `role` as a role change, so a user can still edit its own record', async () => {
    const token = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.admin.email);
    const updated = await withPollutedPrototype('role', 'user', () =>
      suite.api('PUT', `/apps/${APP}/entities/User/me`, { json: { nickname: 'Still Admin' }, token }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ nickname: 'Still Admin', role: 'admin' });
  });

  it('do not store a planted `metadata` on a new conversation', async () => {
    const token = await loginToken(suite.emulator, APP, SEEDED_ACCOUNTS.user.email);
    const created = await withPollutedPrototype('metadata', { planted: true }, () =>
      suite.api('POST', `/apps/${APP}/agents/conversations`, { json: { agent_name: 'helper' }, token }),
    );
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).not.toContain('metadata');
  });
});
