/**
 * The test project both backends serve: a Base44 project folder in the documented layout
 * (base44/config.jsonc, .app.jsonc, entities/, functions/) written to a temporary folder, and the
 * accounts our emulator seeds so that the same e-mail addresses act on both sides.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Seed } from '@/emulator/core/types';

export const APP_ID = 'differential-app';
/** The vendor backend's admin is the account of its login file (support/base44-cli/dev-server.ts). */
export const ADMIN = { email: 'developer@example.com', full_name: 'Offline Developer' };
/** A user who registers on the vendor backend (its OTP flow) and is seeded on ours. */
export const USER = { email: 'second@example.com', full_name: 'second', password: 'second-password-1' };
export const SERVICE_TOKEN = `service-token-${APP_ID}`;

/** Notes: owner-only rows and an owner-only field. */
const NOTE = {
  name: 'Note',
  type: 'object',
  properties: {
    title: { type: 'string' },
    secret: {
      type: 'string',
      rls: { read: { created_by: '{{user.email}}' }, write: { created_by: '{{user.email}}' } },
    },
    priority: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['title'],
  rls: {
    create: true,
    read: { created_by: '{{user.email}}' },
    update: { created_by: '{{user.email}}' },
    delete: { created_by: '{{user.email}}' },
  },
};

/** No row rules (plain CRUD) and one field only admins read. */
const BOARD = {
  name: 'Board',
  type: 'object',
  properties: {
    title: { type: 'string' },
    done: { type: 'boolean' },
    internal: { type: 'string', rls: { read: { user_condition: { role: 'admin' } } } },
  },
  required: ['title'],
};

/** Everyone reads; only the author changes or deletes. */
const POST = {
  name: 'Post',
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  rls: {
    read: true,
    create: true,
    update: { created_by: '{{user.email}}' },
    delete: { created_by: '{{user.email}}' },
  },
};

/** Read-only for everyone but the service role (`write` is the shorthand for create, update, delete). */
const LOCKED = {
  name: 'Locked',
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  rls: { read: true, write: false },
};

/** Defaults, field types, formats, bounds, nested objects and arrays: the rows about schemas. */
const TASK = {
  name: 'Task',
  type: 'object',
  properties: {
    title: { type: 'string' },
    done: { type: 'boolean', default: false },
    estimate: { type: 'integer', default: 1 },
    tags: { type: 'array', items: { type: 'string' } },
    status: { type: 'string', enum: ['todo', 'done'] },
    due: { type: 'string', format: 'date' },
    starts_at: { type: 'string', format: 'date-time' },
    contact: { type: 'string', format: 'email' },
    code: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[A-Z]+$' },
    effort: { type: 'number', minimum: 0, maximum: 10 },
    meta: { type: 'object', properties: { level: { type: 'integer' } }, required: ['level'] },
    steps: {
      type: 'array',
      items: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
    },
  },
  required: ['title'],
};

/** A create rule on a field of the record, and a required field: permission is judged before the schema. */
const TICKET = {
  name: 'Ticket',
  type: 'object',
  properties: { title: { type: 'string' }, owner: { type: 'string' } },
  required: ['title'],
  rls: { create: { 'data.owner': '{{user.email}}' }, read: true },
};

/** Each operation its own rule: anyone creates and updates, the author reads, only admins delete. */
const MEMO = {
  name: 'Memo',
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  rls: {
    create: true,
    read: { created_by: '{{user.email}}' },
    update: true,
    delete: { user_condition: { role: 'admin' } },
  },
};

/** The app's users: a custom field, one only admins read and write, and users nobody but themselves changes. */
const USER_ENTITY = {
  name: 'User',
  type: 'object',
  properties: {
    nickname: { type: 'string' },
    level: {
      type: 'string',
      rls: { read: { user_condition: { role: 'admin' } }, write: { user_condition: { role: 'admin' } } },
    },
  },
  rls: { update: { 'data.nickname': { $ne: 'frozen' } }, delete: { 'data.nickname': { $ne: 'frozen' } } },
};

export function writeProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'differential-project-'));
  const base = path.join(dir, 'base44');
  mkdirSync(path.join(base, 'entities'), { recursive: true });
  writeFileSync(path.join(base, 'config.jsonc'), '// The differential suite\'s project.\n{ "name": "Differential" }\n');
  writeFileSync(path.join(base, '.app.jsonc'), JSON.stringify({ id: APP_ID }));
  writeFileSync(path.join(base, 'entities', 'note.jsonc'), JSON.stringify(NOTE, null, 2));
  writeFileSync(path.join(base, 'entities', 'board.jsonc'), JSON.stringify(BOARD, null, 2));
  writeFileSync(path.join(base, 'entities', 'task.jsonc'), JSON.stringify(TASK, null, 2));
  writeFileSync(path.join(base, 'entities', 'post.jsonc'), JSON.stringify(POST, null, 2));
  writeFileSync(path.join(base, 'entities', 'locked.jsonc'), JSON.stringify(LOCKED, null, 2));
  writeFileSync(path.join(base, 'entities', 'ticket.jsonc'), JSON.stringify(TICKET, null, 2));
  writeFileSync(path.join(base, 'entities', 'memo.jsonc'), JSON.stringify(MEMO, null, 2));
  writeFileSync(path.join(base, 'entities', 'user.jsonc'), JSON.stringify(USER_ENTITY, null, 2));
  cpSync(path.join(__dirname, 'fixture', 'base44', 'functions'), path.join(base, 'functions'), { recursive: true });
  return dir;
}

export function ourSeed(): Seed {
  return {
    accounts: [
      { id: 'account-admin', email: ADMIN.email, full_name: ADMIN.full_name, password: 'admin-password-1' },
      { id: 'account-user', email: USER.email, full_name: USER.full_name, password: USER.password },
    ],
    apps: [
      {
        id: APP_ID,
        name: 'Differential',
        access: 'public',
        siteOrigins: [],
        serviceToken: SERVICE_TOKEN,
        members: [
          { email: ADMIN.email, role: 'admin' },
          { email: USER.email, role: 'user' },
        ],
      },
    ],
  };
}

const REPO_ROOT = path.join(__dirname, '..', '..');

/** Fetches the project functions' imports into the Deno cache both backends use (a no-op when cached). */
export function warmDenoCache(projectDir: string): void {
  const result = spawnSync(
    path.join(REPO_ROOT, 'node_modules', '.bin', 'deno'),
    ['cache', '--no-config', path.join(projectDir, 'base44', 'functions', 'whoAmI', 'entry.ts')],
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        NO_COLOR: '1',
        DENO_DIR: process.env.DENO_DIR ?? path.join(REPO_ROOT, 'node_modules', '.cache', 'deno'),
      },
      timeout: 170_000,
    },
  );
  if (result.status !== 0) throw new Error(`deno cache failed: ${result.stderr}`);
}
