import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

import type { RunningEmulator } from '@/emulator/core/types';
import { DATABASE_FILE } from '@/emulator/store/database';
import { SEEDED_ACCOUNTS, SEEDED_PASSWORD, startTestEmulator } from '@/tests/support/emulator';

/**
 * Login sessions belong to the server: a `base44_emulator_session` cookie planted by a page on
 * another local port (cookies are not separated by port) is never adopted, so the planter's logout
 * cannot end the victim's session; and an ended session stays ended across a restart on the same
 * data dir.
 */

const APP = 'members-only';
const SITE = 'http://localhost:3000/';
const COOKIE = 'base44_emulator_session';

let emulator: RunningEmulator;
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'emulator-sessions-'));
  emulator = await startTestEmulator({ dataDir });
});
afterEach(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

const cookieValue = (response: Response): string =>
  new RegExp(`^${COOKIE}=([\\w-]*)`).exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';

const sidOf = (token: string): unknown =>
  (JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as { sid?: unknown }).sid;

async function apiLogin(cookie?: string): Promise<{ token: string; session: string }> {
  const response = await fetch(`${emulator.url}/api/apps/${APP}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: `${COOKIE}=${cookie}` } : {}) },
    body: JSON.stringify({ email: SEEDED_ACCOUNTS.user.email, password: SEEDED_PASSWORD }),
  });
  expect(response.status).toBe(200);
  return { token: ((await response.json()) as { access_token: string }).access_token, session: cookieValue(response) };
}

async function formLogin(cookie: string): Promise<{ token: string; session: string }> {
  const response = await fetch(`${emulator.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `${COOKIE}=${cookie}` },
    body: new URLSearchParams({
      app_id: APP,
      from_url: SITE,
      email: SEEDED_ACCOUNTS.user.email,
      password: SEEDED_PASSWORD,
    }),
  });
  expect(response.status).toBe(303);
  const token = new URL(response.headers.get('location') ?? '').searchParams.get('access_token') ?? '';
  return { token, session: cookieValue(response) };
}

async function logout(session: string): Promise<void> {
  const response = await fetch(`${emulator.url}/api/apps/auth/logout?from_url=${encodeURIComponent(SITE)}`, {
    redirect: 'manual',
    headers: { Cookie: `${COOKIE}=${session}` },
  });
  expect(response.status).toBe(303);
}

async function me(token: string): Promise<number> {
  const response = await fetch(`${emulator.url}/api/apps/${APP}/entities/User/me`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.status;
}

describe('a planted session cookie', () => {
  it('is never adopted by a login: the victim gets a fresh session the planter cannot end', async () => {
    const planted = randomBytes(32).toString('base64url');
    for (const login of [apiLogin, formLogin]) {
      const victim = await login(planted);
      expect(victim.session).toMatch(/^[\w-]{43}$/);
      expect(victim.session).not.toBe(planted);
      expect(sidOf(victim.token)).toBe(victim.session);
      await logout(planted);
      expect(await me(victim.token)).toBe(200);
    }
  });

  it("is not adopted either when it is a real session of the planter's own login", async () => {
    const planter = await apiLogin();
    const victim = await apiLogin(planter.session);
    expect(victim.session).not.toBe(planter.session);
    await logout(planter.session);
    expect(await me(planter.token)).toBe(401);
    expect(await me(victim.token)).toBe(200);
  });
});

describe('ended sessions with a data dir', () => {
  it('keeps a logged-out token refused after a restart, and other sessions working', async () => {
    const ended = await apiLogin();
    const kept = await apiLogin();
    await logout(ended.session);
    expect(await me(ended.token)).toBe(401);
    await emulator.close();
    emulator = await startTestEmulator({ dataDir });
    expect(await me(ended.token)).toBe(401);
    expect(await me(kept.token)).toBe(200);
  });

  it('stores only sessions it issued: logouts with forged cookies add nothing', async () => {
    const ended = await apiLogin();
    await logout(ended.session);
    for (let index = 0; index < 20; index += 1) await logout(randomBytes(32).toString('base64url'));
    await emulator.close();
    const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      const rows = db.prepare("SELECT id FROM entries WHERE kind = 'ended_session'").all() as { id: string }[];
      expect(rows.map((row) => row.id)).toEqual([ended.session]);
    } finally {
      db.close();
    }
    emulator = await startTestEmulator({ dataDir });
  });
});
