import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { io } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { hashPassword } from '@/emulator/credentials/passwords';
import { sha256Hex, TokenSigner } from '@/emulator/credentials/tokens';
import { DATABASE_FILE } from '@/emulator/store/database';
import { APPLICATION_ID } from '@/emulator/store/database-file';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, type Json } from '../api';

const APP = 'coming-soon';
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'emulator-data-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function withEmulator<T>(run: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
  const emulator = await startTestEmulator({ dataDir });
  try {
    return await run(emulator);
  } finally {
    await emulator.close();
  }
}

describe('with a data dir', () => {
  it('keeps every kind of data across a restart, and tokens stay valid', async () => {
    const first = await withEmulator(async (emulator) => {
      const api = apiClient(emulator);
      const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
      const admin = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
      const { body: record } = await api('POST', entityPath(APP, 'Diary'), {
        json: { entry: 'day one', mood: { score: 7 } },
        token,
      });
      await api('POST', entityPath(APP, 'Diary', '/bulk'), { json: [{ entry: 'two' }, { entry: 'three' }], token });
      await api('PUT', entityPath(APP, 'User', '/user-user'), { json: { role: 'admin' }, token: admin });
      const form = new FormData();
      form.append('file', new File(['persisted bytes'], 'keep.txt', { type: 'text/plain' }));
      const { body: upload } = await api('POST', `/apps/${APP}/integration-endpoints/Core/UploadFile`, {
        body: form,
        token,
      });
      await api('POST', `/apps/${APP}/integration-endpoints/Core/SendEmail`, {
        json: { to: 'keep@example.com', subject: 's', body: 'b' },
        token,
      });
      const { body: conversation } = await api('POST', `/apps/${APP}/agents/conversations`, {
        json: { agent_name: 'memory' },
        token,
      });
      await api('POST', `/apps/${APP}/agents/conversations/${conversation.id as string}/messages`, {
        json: { content: 'remember me' },
        token,
      });
      await api('POST', `/app-logs/${APP}/log-user-in-app/ComingSoon`, { token });
      await api('POST', `/apps/${APP}/auth/register`, {
        json: { email: 'fresh@example.com', password: 'fresh-password' },
      });
      return { token, record, fileUrl: new URL(upload.file_url as string), conversationId: conversation.id as string };
    });

    await withEmulator(async (emulator) => {
      const api = apiClient(emulator);
      const diary = await api<Json[]>('GET', `${entityPath(APP, 'Diary')}?sort=created_date`, { token: first.token });
      expect(diary.body.map((entry) => entry.entry)).toEqual(['day one', 'two', 'three']);
      expect(diary.body[0]).toEqual(first.record);
      const me = await api('GET', entityPath(APP, 'User', '/me'), { token: first.token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ role: 'admin' });
      const file = await fetch(`${emulator.url}${first.fileUrl.pathname}`);
      expect(await file.text()).toBe('persisted bytes');
      expect(emulator.outbox().map((mail) => mail.to)).toEqual(
        expect.arrayContaining(['keep@example.com', 'fresh@example.com']),
      );
      const conversation = await api('GET', `/apps/${APP}/agents/conversations/${first.conversationId}`, {
        token: first.token,
      });
      expect((conversation.body.messages as Json[]).map((message) => message.role)).toEqual(['user', 'assistant']);
      const visits = await api<Json[]>('GET', `/app-logs/${APP}`, { token: serviceTokenFor(APP) });
      expect(visits.body).toHaveLength(1);
      const unverified = await api('POST', `/apps/${APP}/auth/login`, {
        json: { email: 'fresh@example.com', password: 'fresh-password' },
      });
      expect(unverified.body).toMatchObject({ code: 'email_not_verified' });
    });
  });

  it('stores only scrypt hashes of passwords, never the passwords', async () => {
    await withEmulator(async (emulator) => {
      await apiClient(emulator)('POST', `/apps/${APP}/auth/register`, {
        json: { email: 'secret@example.com', password: 'my-secret-password' },
      });
    });
    const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      const rows = db
        .prepare('SELECT body FROM state UNION ALL SELECT body FROM records UNION ALL SELECT body FROM entries')
        .all() as { body: string }[];
      const text = rows.map((row) => row.body).join('\n');
      expect(text).not.toContain('my-secret-password');
      expect(text).not.toContain('emulator-password');
      const accounts = db.prepare("SELECT body FROM entries WHERE kind = 'account'").all() as { body: string }[];
      const account = accounts
        .map((row) => JSON.parse(row.body) as { email: string; password_hash: string })
        .find((entry) => entry.email === 'secret@example.com');
      expect(account?.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    } finally {
      db.close();
    }
  });

  it('keeps one database row per record, in place across updates and gone after a delete', async () => {
    const ids = await withEmulator(async (emulator) => {
      const api = apiClient(emulator);
      const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
      const { body: created } = await api<Json[]>('POST', entityPath(APP, 'Row', '/bulk'), {
        json: [{ n: 1 }, { n: 2 }, { n: 3 }],
        token,
      });
      const [first, second, third] = created.map((record) => record.id as string);
      await api('PUT', entityPath(APP, 'Row', `/${first as string}`), { json: { n: 10 }, token });
      await api('DELETE', entityPath(APP, 'Row', `/${second as string}`), { token });
      return [first, third];
    });
    const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      const rows = db
        .prepare("SELECT id, body FROM records WHERE app = ? AND entity = 'Row' ORDER BY seq")
        .all(APP) as { id: string; body: string }[];
      expect(rows.map((row) => row.id)).toEqual(ids);
      expect(rows.map((row) => (JSON.parse(row.body) as Json).n)).toEqual([10, 3]);
    } finally {
      db.close();
    }
  });

  it('ignores and removes a partial temp file of an upload left by a crash', async () => {
    await withEmulator(async (emulator) => {
      const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
      await apiClient(emulator)('POST', entityPath(APP, 'Kept'), { json: { ok: true }, token });
    });
    await writeFile(path.join(dataDir, 'files', 'abc.99999.1.tmp'), 'trunc');
    await withEmulator(async (emulator) => {
      const { body } = await apiClient(emulator)<Json[]>('GET', entityPath(APP, 'Kept'));
      expect(body).toHaveLength(1);
    });
    expect((await readdir(path.join(dataDir, 'files'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses to start on a corrupt or foreign database instead of overwriting it', async () => {
    const file = path.join(dataDir, DATABASE_FILE);
    await writeFile(file, "this is not a database, but somebody else's file");
    await expect(startTestEmulator({ dataDir })).rejects.toThrow(/not a database/);
    expect(await readFile(file, 'utf8')).toBe("this is not a database, but somebody else's file");
    await rm(file);
    const foreign = new Database(file);
    foreign.exec(
      "CREATE TABLE state (name TEXT PRIMARY KEY, body TEXT NOT NULL); INSERT INTO state VALUES ('core', '{\"version\":7}')",
    );
    foreign.close();
    const before = await readFile(file);
    await expect(startTestEmulator({ dataDir })).rejects.toThrow(/was not created by the emulator/);
    expect(await readFile(file)).toEqual(before);
  });

  it('moves a version 1 database (shared lists inside JSON rows) to one row per entry, keeping everything', async () => {
    const file = path.join(dataDir, DATABASE_FILE);
    const old = new Database(file);
    const at = '2026-01-01T00:00:00.000Z';
    const core = {
      version: 1,
      token_secret: 'version-one-secret-0123456789',
      accounts: {},
      otps: {},
      reset_tickets: {},
      files: {
        f1: { id: 'f1', app_id: APP, name: 'a.txt', type: 'text/plain', size: 3, created_by: null, created_date: at },
      },
    };
    const conversation = {
      id: 'c1',
      agent_name: 'memory',
      messages: [{ id: 'm1', role: 'user', content: 'kept', created_date: at }],
      created_by: 'service',
      created_by_id: 'service',
      created_date: at,
      updated_date: at,
    };
    const visit = {
      id: 'v1',
      user_id: 'user-user',
      user_email: 'user@example.com',
      page_name: 'Home',
      created_date: at,
    };
    old.pragma('journal_mode = WAL');
    old.exec(
      'CREATE TABLE records (seq INTEGER PRIMARY KEY, app TEXT NOT NULL, entity TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (app, entity, id)); CREATE TABLE state (name TEXT PRIMARY KEY, body TEXT NOT NULL); PRAGMA user_version = 1',
    );
    const put = old.prepare('INSERT INTO state (name, body) VALUES (?, ?)');
    put.run('core', JSON.stringify(core));
    put.run(
      'outbox',
      JSON.stringify([{ id: 'o1', app_id: APP, to: 'old@example.com', subject: 's', body: 'b', sent_at: at }]),
    );
    put.run(`app:${APP}`, JSON.stringify({ conversations: { c1: conversation }, page_visits: [visit] }));
    old.close();

    const read = async () =>
      withEmulator(async (emulator) => {
        const api = apiClient(emulator);
        const service = serviceTokenFor(APP);
        return {
          outbox: emulator.outbox().map((mail) => mail.to),
          conversation: (await api('GET', `/apps/${APP}/agents/conversations/c1`, { token: service })).body,
          visits: (await api<Json[]>('GET', `/app-logs/${APP}`, { token: service })).body.map((entry) => entry.id),
        };
      });
    const expected = { outbox: ['old@example.com'], conversation, visits: ['v1'] };
    expect(await read()).toEqual(expected);
    expect(await read()).toEqual(expected);
    const migrated = new Database(file, { readonly: true });
    try {
      expect(migrated.pragma('user_version', { simple: true })).toBe(3);
      const kinds = migrated.prepare('SELECT kind, id FROM entries ORDER BY seq').all();
      expect(kinds).toEqual(
        expect.arrayContaining([
          { kind: 'outbox', id: 'o1' },
          { kind: 'file', id: 'f1' },
          { kind: 'conversation', id: 'c1' },
          { kind: 'page_visit', id: 'v1' },
        ]),
      );
    } finally {
      migrated.close();
    }
  });

  it('moves a version 2 database (accounts, codes, tickets, ended sessions inside two JSON rows) to a row each', async () => {
    const file = path.join(dataDir, DATABASE_FILE);
    const secret = 'version-two-secret-0123456789abcdef';
    const at = '2026-01-01T00:00:00.000Z';
    const now = Date.now();
    const ticket = 'a-reset-ticket-mailed-before-the-upgrade';
    const account = (id: string, email: string, verified: boolean, hash: string) => ({
      id,
      email,
      full_name: id,
      password_hash: hash,
      email_verified: verified,
      token_version: 0,
      created_date: at,
    });
    const core = {
      version: 1,
      token_secret: secret,
      accounts: {
        kept: account('kept', 'kept@example.com', true, await hashPassword('kept-password')),
        pending: account('pending', 'pending@example.com', false, await hashPassword('pending-password')),
      },
      otps: {
        'pending@example.com': { code_hash: sha256Hex('123456'), expires_at: now + 600_000, attempts: 0, app_id: APP },
      },
      reset_tickets: {
        [sha256Hex(ticket)]: { account_id: 'kept', app_id: APP, expires_at: now + 3_600_000, purpose: 'reset' },
      },
    };
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec(
      'CREATE TABLE records (seq INTEGER PRIMARY KEY, app TEXT NOT NULL, entity TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (app, entity, id)); CREATE TABLE state (name TEXT PRIMARY KEY, body TEXT NOT NULL); CREATE TABLE entries (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, app TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (kind, app, id))',
    );
    old.pragma(`application_id = ${APPLICATION_ID}`);
    old.pragma('user_version = 2');
    const put = old.prepare('INSERT INTO state (name, body) VALUES (?, ?)');
    put.run('core', JSON.stringify(core));
    put.run('sessions', JSON.stringify({ ended: { 'ended-before-the-upgrade': now + 3_600_000 } }));
    put.run(`app:${APP}`, '{}');
    old.close();

    await withEmulator(async (emulator) => {
      const api = apiClient(emulator);
      // The account, its login and its tokens: the secret came along.
      await loginToken(emulator, APP, 'kept@example.com', 'kept-password');
      const signer = new TokenSigner(secret, Date.now);
      const me = async (sid: string) =>
        (await api('GET', entityPath(APP, 'User', '/me'), { token: signer.sign(APP, 'kept', 0, sid) })).status;
      expect(await me('ended-before-the-upgrade')).toBe(401);
      expect(await me('still-open')).toBe(200);
      const verified = await api('POST', `/apps/${APP}/auth/verify-otp`, {
        json: { email: 'pending@example.com', otp_code: '123456' },
      });
      expect(verified.status).toBe(200);
      const reset = await api('POST', `/apps/${APP}/auth/reset-password`, {
        json: { reset_token: ticket, new_password: 'after-the-upgrade' },
      });
      expect(reset.status).toBe(200);
    });
    await withEmulator(async (emulator) => {
      await loginToken(emulator, APP, 'kept@example.com', 'after-the-upgrade');
      await loginToken(emulator, APP, 'pending@example.com', 'pending-password');
    });
    const migrated = new Database(file, { readonly: true });
    try {
      expect(migrated.pragma('user_version', { simple: true })).toBe(3);
      const kinds = migrated.prepare('SELECT kind, id FROM entries').all();
      expect(kinds).toEqual(
        expect.arrayContaining([
          { kind: 'account', id: 'kept' },
          { kind: 'account', id: 'pending' },
          { kind: 'ended_session', id: 'ended-before-the-upgrade' },
        ]),
      );
      const state = migrated.prepare('SELECT name, body FROM state ORDER BY name').all() as Json[];
      expect(state.map((row) => row.name)).toEqual(expect.not.arrayContaining(['sessions']));
      const coreRow = state.find((row) => row.name === 'core');
      expect(JSON.parse(coreRow?.body as string)).toEqual({ version: 1, token_secret: secret });
    } finally {
      migrated.close();
    }
  });

  it('moves the records of an old store.json into the database once, and refuses a damaged one', async () => {
    const id = 'a1b2c3d4e5f6a1b2c3d4e5f6';
    const record = {
      id,
      title: 'from json',
      created_date: '2026-01-01T00:00:00.000Z',
      updated_date: '2026-01-01T00:00:00.000Z',
      created_by: null,
    };
    const legacy = {
      version: 1,
      token_secret: 'legacy-secret-legacy-secret-0123',
      accounts: {},
      otps: {},
      reset_tickets: {},
      files: {},
      outbox: [
        { id: 'm1', app_id: APP, to: 'old@example.com', subject: 's', body: 'b', sent_at: '2026-01-01T00:00:00.000Z' },
      ],
      apps: { [APP]: { entities: { Legacy: { [id]: record } }, conversations: {}, page_visits: [] } },
    };
    await writeFile(path.join(dataDir, 'store.json'), JSON.stringify(legacy));
    const read = async () =>
      withEmulator(async (emulator) => ({
        records: (await apiClient(emulator)<Json[]>('GET', entityPath(APP, 'Legacy'), { token: serviceTokenFor(APP) }))
          .body,
        outbox: emulator.outbox().map((mail) => mail.to),
      }));
    expect(await read()).toEqual({ records: [record], outbox: ['old@example.com'] });
    await rm(path.join(dataDir, 'store.json'));
    expect(await read()).toEqual({ records: [record], outbox: ['old@example.com'] });

    const fresh = await mkdtemp(path.join(tmpdir(), 'emulator-legacy-'));
    try {
      await writeFile(path.join(fresh, 'store.json'), '{"version":1,');
      await expect(startTestEmulator({ dataDir: fresh })).rejects.toThrow(/cannot be moved into the database/);
      expect(await readFile(path.join(fresh, 'store.json'), 'utf8')).toBe('{"version":1,');
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('accepts socket connections after a restart', async () => {
    await withEmulator(async () => undefined);
    await withEmulator(async (emulator) => {
      const socket = io(emulator.url, {
        path: '/ws-user-apps/socket.io/',
        transports: ['websocket'],
        query: { app_id: APP },
        reconnection: false,
        forceNew: true,
      });
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        expect(socket.connected).toBe(true);
      } finally {
        socket.disconnect();
      }
    });
  });
});

describe('without a data dir', () => {
  it('starts empty every time', async () => {
    const first = await startTestEmulator();
    const token = await loginToken(first, APP, SEEDED_ACCOUNTS.user.email);
    await apiClient(first)('POST', entityPath(APP, 'Gone'), { json: { a: 1 }, token });
    await first.close();
    const second = await startTestEmulator();
    try {
      expect((await apiClient(second)<Json[]>('GET', entityPath(APP, 'Gone'))).body).toEqual([]);
      expect((await apiClient(second)('GET', entityPath(APP, 'User', '/me'), { token })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
