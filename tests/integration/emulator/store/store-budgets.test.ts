import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

import type { RunningEmulator } from '@/emulator/core/types';
import { MAX_FILE_BYTES, MAX_FILES } from '@/emulator/store/budgets';
import { DATABASE_FILE } from '@/emulator/store/database';
import { Store } from '@/emulator/store/store';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall, type Json } from '../api';

/**
 * Stored bytes have a budget: anonymous callers cannot make the emulator keep gigabytes (outbox,
 * analytics), grow a record past its limit by merging, pile up reset tickets or conversations, or
 * make every later commit slower by filling a shared list. Each refused write answers 413 and
 * changes nothing; what was acknowledged before stays.
 */

jest.setTimeout(120_000);

const APP = 'coming-soon';
const SERVICE = serviceTokenFor(APP);
const MB = 1_000_000;
let dataDir: string;
let now = Date.parse('2026-11-25T10:00:00.000Z');
let emulator: RunningEmulator;
let api: ApiCall;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'emulator-budgets-'));
  emulator = await startTestEmulator({ dataDir, clock: () => now });
  api = apiClient(emulator);
});
afterEach(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Bytes this process has passed to write(2) so far (Linux): what a commit costs on disk. */
function bytesWritten(): number {
  const match = /^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
  if (!match) throw new Error('/proc/self/io has no wchar line');
  return Number(match[1]);
}

const sendEmail = (body: string, to = 'victim@example.com') =>
  api('POST', `/apps/${APP}/integration-endpoints/Core/SendEmail`, { json: { to, subject: 'big', body } });

describe('the outbox', () => {
  it('refuses anonymous 1 MB mails past its budget, and a later write does not rewrite the outbox', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 60; index += 1) statuses.push((await sendEmail('x'.repeat(MB))).status);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(413);
    const refused = await sendEmail('x'.repeat(MB));
    expect(refused.body).toMatchObject({ code: 'outbox_full' });
    const held = emulator.outbox().length;
    expect(held).toBe(statuses.filter((status) => status === 200).length);

    const before = bytesWritten();
    const record = await api('POST', entityPath(APP, 'Note'), { json: { text: 'small' }, token: SERVICE });
    expect(record.status).toBe(201);
    expect(bytesWritten() - before).toBeLessThan(MB);

    // The emulator's own mails still get in (the oldest make room); clearing makes room for callers.
    await api('POST', `/apps/${APP}/auth/reset-password-request`, { json: { email: SEEDED_ACCOUNTS.user.email } });
    expect(emulator.outbox().at(-1)?.to).toBe(SEEDED_ACCOUNTS.user.email);
    expect((await api('DELETE', '/_emulator/outbox')).status).toBe(200);
    expect((await sendEmail('x'.repeat(MB))).status).toBe(200);
  });
});

describe('reset tickets', () => {
  it('keeps at most three live tickets per account and purges expired ones, however often a reset is asked for', async () => {
    const ask = () =>
      api('POST', `/apps/${APP}/auth/reset-password-request`, { json: { email: SEEDED_ACCOUNTS.user.email } });
    for (let index = 0; index < 20; index += 1) expect((await ask()).status).toBe(200);
    const tokens = emulator
      .outbox()
      .filter((mail) => mail.to === SEEDED_ACCOUNTS.user.email)
      .map((mail) => /token to choose a new password: (\S+)/.exec(mail.body)?.[1] as string);
    const reset = (token: string) =>
      api('POST', `/apps/${APP}/auth/reset-password`, { json: { reset_token: token, new_password: 'a-new-password' } });
    expect((await reset(tokens[0] as string)).body).toMatchObject({ code: 'invalid_reset_token' });

    now += 2 * 60 * 60 * 1000;
    await api('POST', `/apps/${APP}/auth/reset-password-request`, { json: { email: SEEDED_ACCOUNTS.admin.email } });
    await emulator.close();
    const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      const tickets = db.prepare("SELECT id FROM entries WHERE kind = 'reset_ticket'").all();
      // The user's three were expired and purged; only the admin's new one is left.
      expect(tickets).toHaveLength(1);
    } finally {
      db.close();
    }
    emulator = await startTestEmulator({ dataDir, clock: () => now });
  });
});

describe('analytics', () => {
  const event = (index: number) => ({ event_name: `big-${index}`, properties: { pad: 'x'.repeat(950_000) } });
  const track = (events: Json[]) => api('POST', `/apps/${APP}/analytics/track/batch`, { json: { events } });

  it('keeps a byte budget per app (the oldest events roll off) and refuses a batch larger than it', async () => {
    for (let start = 0; start < 40; start += 5)
      expect((await track([0, 1, 2, 3, 4].map((offset) => event(start + offset)))).status).toBe(200);
    const kept = await api<Json[]>('GET', `/_emulator/apps/${APP}/analytics`);
    expect(JSON.stringify(kept.body).length).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(kept.body.at(-1)).toMatchObject({ event_name: 'big-39' });

    const tooBig = await track(Array.from({ length: 9 }, (_, index) => event(100 + index)));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ code: 'analytics_batch_too_large' });
    const after = await api<Json[]>('GET', `/_emulator/apps/${APP}/analytics`);
    expect(after.body.map((entry) => entry.event_name)).toEqual(kept.body.map((entry) => entry.event_name));
  });
});

describe('records after a merge', () => {
  const half = 'y'.repeat(600_000);

  it('refuses a PUT that would grow the stored record past the size limit, leaving it unchanged', async () => {
    const { body: record } = await api('POST', entityPath(APP, 'Grow'), { json: { a: half }, token: SERVICE });
    const grown = await api('PUT', entityPath(APP, 'Grow', `/${record.id as string}`), {
      json: { b: half },
      token: SERVICE,
    });
    expect(grown.status).toBe(413);
    expect(grown.body).toMatchObject({ code: 'record_too_large' });
    const stored = await api('GET', entityPath(APP, 'Grow', `/${record.id as string}`), { token: SERVICE });
    expect(stored.body).toEqual(record);
  });

  it('refuses an upsert whose merged record would be too large, storing nothing of the call', async () => {
    const upsert = await api('POST', entityPath(APP, 'Merged', '/upsert'), {
      json: {
        key: 'slug',
        records: [
          { slug: 'ok', n: 1 },
          { slug: 'big', a: half },
          { slug: 'big', b: half },
        ],
      },
      token: SERVICE,
    });
    expect(upsert.status).toBe(413);
    expect((await api<Json[]>('GET', entityPath(APP, 'Merged'), { token: SERVICE })).body).toEqual([]);
  });

  it('refuses a bulk update that would grow a record past the limit, changing no record of the call', async () => {
    const { body: created } = await api<Json[]>('POST', entityPath(APP, 'Many', '/bulk'), {
      json: [{ a: half }, { n: 1 }],
      token: SERVICE,
    });
    const [big, small] = created;
    const bulk = await api('PUT', entityPath(APP, 'Many', '/bulk'), {
      json: [
        { id: small?.id, n: 2 },
        { id: big?.id, b: half },
      ],
      token: SERVICE,
    });
    expect(bulk.status).toBe(413);
    const stored = (await api<Json[]>('GET', entityPath(APP, 'Many'), { token: SERVICE })).body;
    const byId = (left: Json, right: Json) => String(left.id).localeCompare(String(right.id));
    expect([...stored].sort(byId)).toEqual([...created].sort(byId));
  });
});

describe('conversations', () => {
  it('refuses a message that would grow a conversation past its budget, keeping the conversation as it was', async () => {
    const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
    const { body: conversation } = await api('POST', `/apps/${APP}/agents/conversations`, {
      json: { agent_name: 'talker' },
      token,
    });
    const messages = `/apps/${APP}/agents/conversations/${conversation.id as string}/messages`;
    let refused: { status: number; body: Json } | null = null;
    for (let index = 0; index < 80 && refused === null; index += 1) {
      const answer = await api('POST', messages, { json: { content: 'z'.repeat(100_000) }, token });
      if (answer.status !== 201) refused = answer;
    }
    expect(refused?.status).toBe(413);
    expect(refused?.body).toMatchObject({ code: 'conversation_too_large' });
    await emulator.close();
    emulator = await startTestEmulator({ dataDir, clock: () => now });
    api = apiClient(emulator);
    const stored = await api('GET', `/apps/${APP}/agents/conversations/${conversation.id as string}`, { token });
    expect(JSON.stringify(stored.body).length).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect((stored.body.messages as Json[]).length).toBeGreaterThan(30);
  });
});

describe('uploaded files', () => {
  const file = (id: string, size: number) => ({
    id,
    app_id: APP,
    name: 'f.bin',
    type: 'application/octet-stream',
    size,
    created_by: null,
    created_date: '2026-11-25T10:00:00.000Z',
  });

  it('refuses an upload past the byte budget or the file count (413 on the wire), storing nothing', async () => {
    const full = expect.objectContaining({ kind: 'too_large', code: 'storage_full' });
    const store = Store.inMemory();
    await store.write((change) => change.addFile(file('a', MAX_FILE_BYTES - 10)));
    expect(() => store.requireFileRoom(10)).not.toThrow();
    expect(() => store.requireFileRoom(11)).toThrow(full);
    await expect(store.write((change) => change.addFile(file('b', 11)))).rejects.toEqual(full);
    expect(store.file('b')).toBeUndefined();
    const many = Store.inMemory();
    await many.write((change) => {
      for (let index = 0; index < MAX_FILES; index += 1) change.addFile(file(`f${index}`, 1));
    });
    expect(() => many.requireFileRoom(1)).toThrow(full);
  });
});
