import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';

import { SEEDED_PASSWORD } from '../../../emulator/seed/seeded-login';

/**
 * Row- and field-level security seen from two real browsers: two users sign in through the
 * emulator's login page into a small site that lists their notes, opens one by id and follows the
 * entity's live updates over socket.io. The project defines `rls.read: {"created_by": "{{user.email}}"}`
 * and a field nobody may read; each user sees only its own notes and never that field.
 *
 * A separate emulator (its own project folder, free port) and site run inside the test, so the
 * repository's entities and the e2e platform on 3001 stay as they are.
 */

const REPO = path.resolve(__dirname, '../../..');
const APP = 'coming-soon';
const ENTITY = 'PrivateNote';
const NOTE = {
  name: ENTITY,
  type: 'object',
  properties: {
    title: { type: 'string' },
    secret: { type: 'string', rls: { read: false, write: true } },
  },
  rls: { create: true, read: { created_by: '{{user.email}}' }, update: { created_by: '{{user.email}}' } },
};

/** The site: reads the token from the address, then lists, fetches and follows notes with it. */
function sitePage(emulatorUrl: string): string {
  const config = JSON.stringify({ emulator: emulatorUrl, app: APP, entity: ENTITY });
  return `<!doctype html><meta charset="utf-8"><title>Notes</title>
<ul id="list"></ul><ul id="live"></ul>
<script src="/socket.io.min.js"></script>
<script>
const config = ${config};
const token = new URLSearchParams(location.search).get('access_token');
const base = config.emulator + '/api/apps/' + config.app + '/entities/' + config.entity;
async function call(method, suffix, body) {
  const response = await fetch(base + suffix, {
    method,
    headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
function show(list, record) {
  const item = document.createElement('li');
  item.textContent = JSON.stringify(record);
  document.getElementById(list).append(item);
}
window.notes = {
  create: (title) => call('POST', '', { title, secret: title + ' secret' }),
  get: (id) => call('GET', '/' + encodeURIComponent(id)),
  async refresh() {
    const { body } = await call('GET', '?sort=title');
    document.getElementById('list').replaceChildren();
    for (const record of body) show('list', record);
    return body;
  },
  joined: false,
};
const socket = io(config.emulator, {
  path: '/ws-user-apps/socket.io/',
  transports: ['websocket'],
  query: { app_id: config.app, token },
});
socket.on('connect', () => {
  socket.emit('join', 'entities:' + config.app + ':' + config.entity);
  window.notes.joined = true;
});
socket.on('update_model', (message) => show('live', JSON.parse(message.data).data));
</script>`;
}

let root: string;
let site: Server;
let siteUrl: string;
let emulator: ChildProcess;
let emulatorUrl: string;

function startEmulatorProcess(): Promise<string> {
  emulator = spawn(
    process.execPath,
    ['--import', 'tsx', 'emulator/start/cli.ts', '--port', '0', '--quiet', '--project', root, '--site-origin', siteUrl],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    emulator.stdout?.on('data', collect);
    emulator.stderr?.on('data', collect);
    emulator.once('exit', (code) => reject(new Error(`the emulator exited (${code}): ${output}`)));
  });
}

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'private-notes-'));
  mkdirSync(path.join(root, 'base44/entities'), { recursive: true });
  writeFileSync(path.join(root, 'base44/entities/private-note.jsonc'), JSON.stringify(NOTE));
  const socketClient = readFileSync(path.join(REPO, 'node_modules/socket.io-client/dist/socket.io.min.js'));
  site = createServer((request, response) => {
    if (request.url === '/socket.io.min.js') {
      response.setHeader('Content-Type', 'text/javascript');
      response.end(socketClient);
      return;
    }
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.end(sitePage(emulatorUrl));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  emulatorUrl = await startEmulatorProcess();
});

test.afterAll(async () => {
  if (emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator.once('exit', resolve));
    emulator.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => site.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** Signs in through the emulator's login page, as a visitor of the site would, in a fresh context. */
async function signIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${emulatorUrl}/login?app_id=${APP}&from_url=${encodeURIComponent(`${siteUrl}/notes`)}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(SEEDED_PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(`${siteUrl}/notes?access_token=`)),
    page.getByRole('button', { name: 'Log in' }).click(),
  ]);
  await page.waitForFunction(() => (window as unknown as { notes?: { joined: boolean } }).notes?.joined === true);
  return page;
}

interface Notes {
  create(title: string): Promise<{ status: number; body: Record<string, unknown> }>;
  get(id: string): Promise<{ status: number; body: Record<string, unknown> }>;
  refresh(): Promise<Record<string, unknown>[]>;
}

const notesOf = (page: Page) => ({
  create: (title: string) =>
    page.evaluate((value) => (window as unknown as { notes: Notes }).notes.create(value), title),
  get: (id: string) => page.evaluate((value) => (window as unknown as { notes: Notes }).notes.get(value), id),
  refresh: () => page.evaluate(() => (window as unknown as { notes: Notes }).notes.refresh()),
});

test('two users each see only their own notes, never the hidden field, in lists, gets and live updates', async ({
  browser,
}) => {
  const ana = await signIn(browser, 'user@example.com');
  const bo = await signIn(browser, 'member@example.com');
  // Both sockets have joined; give the joins a moment to land on the server.
  await ana.waitForTimeout(300);

  const anaNote = await notesOf(ana).create('Ana: shopping list');
  expect(anaNote.status).toBe(201);
  const boNote = await notesOf(bo).create('Bo: birthday ideas');
  expect(boNote.status).toBe(201);
  expect(anaNote.body).not.toHaveProperty('secret');

  // Live updates: each sees the creation of its own note only, without the hidden field.
  await expect(ana.locator('#live li')).toHaveCount(1);
  await expect(bo.locator('#live li')).toHaveCount(1);
  await expect(ana.locator('#live')).toContainText('Ana: shopping list');
  await expect(bo.locator('#live')).toContainText('Bo: birthday ideas');

  // Lists.
  await notesOf(ana).refresh();
  await notesOf(bo).refresh();
  await expect(ana.locator('#list li')).toHaveCount(1);
  await expect(ana.locator('#list')).toContainText('Ana: shopping list');
  await expect(bo.locator('#list li')).toHaveCount(1);
  await expect(bo.locator('#list')).toContainText('Bo: birthday ideas');

  // Gets: one's own note without the hidden field; the other's is not there at all.
  const own = await notesOf(ana).get(anaNote.body.id as string);
  expect(own.status).toBe(200);
  expect(own.body).toMatchObject({ title: 'Ana: shopping list', created_by: 'user@example.com' });
  expect((await notesOf(ana).get(boNote.body.id as string)).status).toBe(404);
  expect((await notesOf(bo).get(anaNote.body.id as string)).status).toBe(404);

  for (const page of [ana, bo]) {
    for (const list of ['#list', '#live']) {
      await expect(page.locator(list)).not.toContainText('secret');
      await expect(page.locator(list)).not.toContainText(page === ana ? 'Bo:' : 'Ana:');
    }
  }
  await ana.context().close();
  await bo.context().close();
});
