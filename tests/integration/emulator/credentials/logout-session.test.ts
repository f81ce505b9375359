import { SEEDED_ACCOUNTS, SEEDED_PASSWORD } from '@/tests/support/emulator';

import { suiteEmulator } from '../api';

/**
 * `{url}/api/apps/auth/logout?from_url=...` is where the reference client sends the browser on
 * logout. It must end the emulator's login session: the token issued in it is refused afterwards.
 */

const suite = suiteEmulator();
const APP = 'members-only';
const SITE = 'http://localhost:3000/';

function sessionCookieOf(response: Response): string {
  const cookie = response.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/^base44_emulator_session=[\w-]{43}; /);
  expect(cookie.split('; ').slice(1).sort()).toEqual([
    'HttpOnly',
    `Max-Age=${7 * 24 * 3600}`,
    'Path=/',
    'SameSite=Lax',
  ]);
  return cookie.split(';')[0] as string;
}

async function me(token: string): Promise<number> {
  const response = await fetch(`${suite.emulator.url}/api/apps/${APP}/entities/User/me`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.status;
}

async function logout(cookie?: string): Promise<Response> {
  return fetch(`${suite.emulator.url}/api/apps/auth/logout?from_url=${encodeURIComponent(SITE)}`, {
    redirect: 'manual',
    headers: cookie === undefined ? {} : { Cookie: cookie },
  });
}

it('ends the session of a login-page login: its token is 401 afterwards, and the cookie is cleared', async () => {
  const login = await fetch(`${suite.emulator.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      app_id: APP,
      from_url: SITE,
      email: SEEDED_ACCOUNTS.user.email,
      password: SEEDED_PASSWORD,
    }),
  });
  expect(login.status).toBe(303);
  const cookie = sessionCookieOf(login);
  const token = new URL(login.headers.get('location') ?? '').searchParams.get('access_token') ?? '';
  expect(await me(token)).toBe(200);

  const out = await logout(cookie);
  expect(out.status).toBe(303);
  expect(out.headers.get('location')).toBe(SITE);
  expect(out.headers.get('set-cookie')).toMatch(/^base44_emulator_session=; (.*; )?Max-Age=0(;|$)/);
  expect(await me(token)).toBe(401);
});

it("ends an API login's session too, and leaves other sessions alone", async () => {
  const loginApi = () =>
    fetch(`${suite.emulator.url}/api/apps/${APP}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: SEEDED_ACCOUNTS.admin.email, password: SEEDED_PASSWORD }),
    });
  const first = await loginApi();
  const second = await loginApi();
  const firstToken = ((await first.json()) as { access_token: string }).access_token;
  const secondToken = ((await second.json()) as { access_token: string }).access_token;
  await logout(sessionCookieOf(first));
  expect(await me(firstToken)).toBe(401);
  expect(await me(secondToken)).toBe(200);
  sessionCookieOf(second);
});

it('a logout without a session cookie still goes back, and ends nothing', async () => {
  const out = await logout();
  expect(out.status).toBe(303);
  expect(out.headers.get('location')).toBe(SITE);
});
