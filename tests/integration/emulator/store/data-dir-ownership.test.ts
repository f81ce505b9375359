import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

import { DATABASE_FILE } from '@/emulator/store/database';
import { serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { killHard, startCli, type RunningCli } from '../cli-process';

/**
 * A data dir belongs to one emulator process, and the database in it to the emulator. A second
 * process on the same dir, or a database (or symlink) the emulator did not create, stops the start
 * before anything is written, so no acknowledged data is lost and no foreign file is changed.
 */

jest.setTimeout(60_000);

const APP = 'coming-soon';
const SERVICE = serviceTokenFor(APP);
const INVITEE = 'invitee@example.com';

let dataDir: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'emulator-owner-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) await killHard(child);
  await rm(dataDir, { recursive: true, force: true });
});

async function cli(): Promise<RunningCli> {
  const running = await startCli(['--data-dir', dataDir]);
  children.push(running.child);
  return running;
}

async function post(url: string, route: string, json: unknown, token?: string): Promise<Response> {
  return fetch(`${url}/api/apps/${APP}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(json),
  });
}

async function inviteTicket(url: string): Promise<string> {
  const response = await fetch(`${url}/api/_emulator/outbox?to=${encodeURIComponent(INVITEE)}`);
  const mails = (await response.json()) as { body: string }[];
  const ticket = /token \(valid 7 days\): (\S+)/.exec(mails[0]?.body ?? '')?.[1];
  if (!ticket) throw new Error('no invitation in the outbox');
  return ticket;
}

describe('two emulators on one data dir', () => {
  it('refuses the second with a clear message and keeps what the first acknowledged', async () => {
    const first = await cli();
    const invited = await post(first.url, '/users/invite-user', { user_email: INVITEE, role: 'user' }, SERVICE);
    expect(invited.status).toBe(200);
    const ticket = await inviteTicket(first.url);

    await expect(startCli(['--data-dir', dataDir])).rejects.toThrow(
      /exited early \(1\)[\s\S]*already in use by another emulator process/,
    );
    await expect(startTestEmulator({ dataDir })).rejects.toThrow(/already in use by another emulator process/);

    // A later write of the first rewrites its shared state; the invitation must survive it and a crash.
    expect((await post(first.url, '/auth/reset-password-request', { email: 'user@example.com' })).status).toBe(200);
    await killHard(first.child);

    const restarted = await cli();
    const chosen = await post(restarted.url, '/auth/reset-password', {
      reset_token: ticket,
      new_password: 'invitee-password',
    });
    expect(chosen.status).toBe(200);
    const login = await post(restarted.url, '/auth/login', { email: INVITEE, password: 'invitee-password' });
    expect(login.status).toBe(200);
  });
  it('releases the data dir when a start fails after opening it (port taken), so the next start works', async () => {
    const holder = await startTestEmulator();
    try {
      await expect(startTestEmulator({ dataDir, port: holder.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await holder.close();
    }
    const next = await startTestEmulator({ dataDir });
    await next.close();
  });
});

describe('databases the emulator did not create', () => {
  const foreignBytes = async (file: string): Promise<Buffer> => {
    const foreign = new Database(file);
    foreign.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('my own data')");
    foreign.close();
    return readFile(file);
  };

  it('refuses a foreign SQLite file and leaves its bytes (and the folder) as they were', async () => {
    const file = path.join(dataDir, DATABASE_FILE);
    const before = await foreignBytes(file);
    await expect(startTestEmulator({ dataDir })).rejects.toThrow(/was not created by the emulator/);
    expect(await readFile(file)).toEqual(before);
    expect(await readdir(dataDir)).toEqual([DATABASE_FILE]);
  });

  it('refuses a foreign SQLite file that looks like an old emulator database', async () => {
    const file = path.join(dataDir, DATABASE_FILE);
    const foreign = new Database(file);
    foreign.exec('CREATE TABLE records (x); CREATE TABLE state (name, body); PRAGMA user_version = 1');
    foreign.close();
    const before = await readFile(file);
    await expect(startTestEmulator({ dataDir })).rejects.toThrow(/was not created by the emulator/);
    expect(await readFile(file)).toEqual(before);
  });

  it.each([
    ['to a foreign SQLite file', async (target: string) => foreignBytes(target)],
    [
      "to another emulator's database",
      async (target: string) => {
        const other = path.dirname(target);
        const emulator = await startTestEmulator({ dataDir: other });
        await emulator.close();
        return readFile(path.join(other, DATABASE_FILE));
      },
    ],
  ])('refuses a symlink %s and leaves the target unchanged', async (_name, makeTarget) => {
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'emulator-target-'));
    try {
      const target = path.join(elsewhere, DATABASE_FILE);
      const before = await makeTarget(target);
      await symlink(target, path.join(dataDir, DATABASE_FILE));
      await expect(startTestEmulator({ dataDir })).rejects.toThrow(/is a symbolic link/);
      expect(await readFile(target)).toEqual(before);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a symlink in place of the write-ahead log, leaving its target unchanged', async () => {
    const emulator = await startTestEmulator({ dataDir });
    await emulator.close();
    const victim = path.join(dataDir, '..', `${path.basename(dataDir)}-victim.txt`);
    await writeFile(victim, 'precious');
    try {
      await symlink(victim, path.join(dataDir, `${DATABASE_FILE}-wal`));
      await expect(startTestEmulator({ dataDir })).rejects.toThrow(/is a symbolic link/);
      expect(await readFile(victim, 'utf8')).toBe('precious');
    } finally {
      await rm(victim, { force: true });
    }
  });

  it('refuses an empty file instead of turning it into a database', async () => {
    const file = path.join(dataDir, DATABASE_FILE);
    await writeFile(file, '');
    await expect(startTestEmulator({ dataDir })).rejects.toThrow(/not a database of the emulator/);
    expect((await readFile(file)).length).toBe(0);
  });
});
