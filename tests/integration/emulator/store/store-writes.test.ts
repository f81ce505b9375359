import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { RunningEmulator } from '@/emulator/core/types';
import { StoreDatabase } from '@/emulator/store/database';
import { Store, type StoreChange } from '@/emulator/store/store';
import { SEEDED_ACCOUNTS, SEEDED_PASSWORD, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * A commit writes what it changed and nothing else: each account, code, ticket and ended session is
 * a database row of its own, so a password change rewrites one account, not every account with it.
 * Measured by what the database layer is handed (StoreDatabase.write), not by time. And a write the
 * store refuses hands it nothing at all.
 */

jest.setTimeout(60_000);

const APP = 'members-only';
const SITE = 'http://localhost:3000/';
const COOKIE = 'base44_emulator_session';
let dataDir: string;
let emulator: RunningEmulator;
let api: ApiCall;
const writes = jest.spyOn(StoreDatabase.prototype, 'write');

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'emulator-writes-'));
  emulator = await startTestEmulator({ dataDir });
  api = apiClient(emulator);
});
afterEach(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** What the database was handed since the last call: "kind id" per row, "section name" per small row. */
function rowsWritten(): { rows: string[]; text: string } {
  const calls = writes.mock.calls;
  writes.mockClear();
  const rows = calls.flatMap(([records, entries, sections]) => [
    ...records.map((change) => `record ${change.entity} ${change.id}`),
    ...entries.map((change) => `${change.kind} ${change.id}`),
    ...[...sections.keys()].map((name) => `section ${name}`),
  ]);
  return {
    rows: rows.sort(),
    text: JSON.stringify(calls.map(([records, entries, sections]) => [records, entries, [...sections]])),
  };
}

async function login(): Promise<{ token: string; session: string }> {
  const response = await fetch(`${emulator.url}/api/apps/${APP}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: SEEDED_ACCOUNTS.user.email, password: SEEDED_PASSWORD }),
  });
  expect(response.status).toBe(200);
  const session = new RegExp(`^${COOKIE}=([\\w-]*)`).exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';
  return { token: ((await response.json()) as { access_token: string }).access_token, session };
}

const OTHER_ACCOUNTS = [SEEDED_ACCOUNTS.admin, SEEDED_ACCOUNTS.member, SEEDED_ACCOUNTS.outsider];

describe('a commit', () => {
  it('writes only the account a password change touched, not the other accounts', async () => {
    const { token } = await login();
    rowsWritten();
    const changed = await api('POST', `/apps/${APP}/auth/change-password`, {
      json: { user_id: SEEDED_ACCOUNTS.user.id, current_password: SEEDED_PASSWORD, new_password: 'another-password' },
      token,
    });
    expect(changed.status).toBe(200);
    const { rows, text } = rowsWritten();
    expect(rows).toEqual([`account ${SEEDED_ACCOUNTS.user.id}`]);
    for (const other of OTHER_ACCOUNTS) expect(text).not.toContain(other.email);
  });

  it('writes only the ended session on logout, and only the ticket and its mail on a reset request', async () => {
    const { session } = await login();
    rowsWritten();
    const logout = await fetch(`${emulator.url}/api/apps/auth/logout?from_url=${encodeURIComponent(SITE)}`, {
      redirect: 'manual',
      headers: { Cookie: `${COOKIE}=${session}` },
    });
    expect(logout.status).toBe(303);
    expect(rowsWritten().rows).toEqual([`ended_session ${session}`]);

    const asked = await api('POST', `/apps/${APP}/auth/reset-password-request`, {
      json: { email: SEEDED_ACCOUNTS.admin.email },
    });
    expect(asked.status).toBe(200);
    const { rows, text } = rowsWritten();
    expect(rows.map((row) => row.split(' ')[0])).toEqual(['outbox', 'reset_ticket']);
    expect(text).not.toContain(SEEDED_ACCOUNTS.user.email);
  });

  it('writes a new account, its code and its mail on registration, and nothing of the others', async () => {
    rowsWritten();
    const registered = await api('POST', `/apps/${APP}/auth/register`, {
      json: { email: 'new@example.com', password: 'new-password' },
    });
    expect(registered.status).toBe(200);
    const { rows, text } = rowsWritten();
    expect(
      rows.map((row) =>
        row
          .split(' ')
          .slice(0, row.startsWith('otp') ? 2 : 1)
          .join(' '),
      ),
    ).toEqual(['account', 'otp new@example.com', 'outbox']);
    for (const other of [SEEDED_ACCOUNTS.user, ...OTHER_ACCOUNTS]) expect(text).not.toContain(other.email);
  });
});

describe('a refused write', () => {
  it('hands the database nothing: a message the conversation cannot hold leaves it as it was', async () => {
    // A silent responder: no reply is written in the background between the messages.
    await emulator.close();
    emulator = await startTestEmulator({ dataDir, responder: () => null });
    api = apiClient(emulator);
    const { token } = await login();
    const { body: conversation } = await api('POST', `/apps/${APP}/agents/conversations`, {
      json: { agent_name: 'talker' },
      token,
    });
    const messages = `/apps/${APP}/agents/conversations/${conversation.id as string}/messages`;
    let refused: { status: number; body: Json } | null = null;
    let accepted = 0;
    for (let index = 0; index < 80 && refused === null; index += 1) {
      rowsWritten();
      const answer = await api('POST', messages, { json: { content: 'z'.repeat(100_000) }, token });
      if (answer.status === 201) accepted += 1;
      else refused = answer;
    }
    expect(refused).toMatchObject({ status: 413, body: { code: 'conversation_too_large' } });
    expect(rowsWritten().rows).toEqual([]);
    const stored = await api('GET', `/apps/${APP}/agents/conversations/${conversation.id as string}`, { token });
    expect(stored.body.messages).toHaveLength(accepted);
    expect(stored.body.updated_date).toBe((stored.body.messages as Json[]).at(-1)?.created_date);
  });
});

describe('Store.write, the one commit path', () => {
  const at = '2026-11-25T10:00:00.000Z';
  const account = {
    id: 'a1',
    email: 'a1@example.com',
    full_name: 'A',
    password_hash: null,
    email_verified: false,
    token_version: 0,
    created_date: at,
  };
  const conversation = (id: string, padding: number) => ({
    id,
    agent_name: 'talker',
    messages: [],
    metadata: { padding: 'x'.repeat(padding) },
    created_by: 'a1@example.com',
    created_by_id: 'a1',
    created_date: at,
    updated_date: at,
  });

  it('refuses a change whole: nothing of it is applied and its afterCommit steps never run', async () => {
    const store = Store.inMemory();
    const announced: string[] = [];
    const refused = store.write((change) => {
      change.addAccount(account);
      change.startConversation('app', conversation('c1', 5 * 1024 * 1024));
      change.afterCommit(() => announced.push('published'));
    });
    await expect(refused).rejects.toMatchObject({ kind: 'too_large', code: 'conversation_too_large' });
    expect(store.account('a1')).toBeUndefined();
    expect(store.findConversation('app', 'c1')).toBeUndefined();
    expect(announced).toEqual([]);

    await store.write((change) => {
      change.addAccount(account);
      change.startConversation('app', conversation('c1', 10));
      change.afterCommit(() => announced.push('published'));
    });
    expect(store.account('a1')).toEqual(account);
    expect(announced).toEqual(['published']);
  });

  it('refuses a second account of an address, in any case of its letters', async () => {
    const store = Store.inMemory();
    await store.write((change) => change.addAccount(account));
    const twin = { ...account, id: 'a2', email: 'A1@Example.com' };
    await expect(store.write((change) => change.addAccount(twin))).rejects.toThrow(/an account of a1@example.com/);
    expect(store.account('a2')).toBeUndefined();
    expect(store.findAccountByEmail('a1@example.com')?.id).toBe('a1');
  });

  it('replaces what it changes instead of changing it in place, and ends staging with the callback', async () => {
    const store = Store.inMemory();
    await store.write((change) => change.startConversation('app', conversation('c1', 10)));
    const before = store.findConversation('app', 'c1');
    const message = { id: 'm1', role: 'user' as const, content: 'hi', created_date: '2026-11-25T11:00:00.000Z' };
    let kept: StoreChange | null = null;
    await store.write((change) => {
      change.appendMessage('app', 'c1', message);
      kept = change;
    });
    expect(before?.messages).toEqual([]);
    expect(store.findConversation('app', 'c1')).toMatchObject({
      messages: [message],
      updated_date: message.created_date,
    });
    expect(() => (kept as unknown as StoreChange).dropOtp('a1@example.com')).toThrow(/only inside its store.write/);
  });
});
