/**
 * `npx base44 dev` serves this site: the pinned vendor CLI, offline (temporary HOME with a stub
 * login), from a copy of the repository, starts its local backend and our `serveCommand`
 * (`npm run dev`), which must talk to that backend and start no emulator of its own. Our SDK, loaded
 * into the site's page, writes and reads a Todo (base44/entities/todo.jsonc) through the vendor
 * backend and receives its real-time `update_model` event. Nothing outlives the suite.
 */
import { connect } from 'node:net';
import { expect, test, type Page } from '@playwright/test';

import type { createClient } from '../../lib/sdk';
import { startVendorDevServer, type VendorDevServer } from '../../support/base44-cli/dev-server';
import { copyProject, type ProjectCopy } from '../../support/base44-cli/project-copy';
import { freePort } from '../../support/processes';
import { sdkScript } from './sdk-bundle';

const APP_ID = 'coming-soon-base44-dev';
const HEADING = 'Unsere neue Website ist fast startklar';

declare global {
  interface Window {
    platformSdk: { createClient: typeof createClient };
  }
}

let project: ProjectCopy;
let backend: VendorDevServer;
let sitePort: number;
let emulatorPort: number;
let siteUrl: string;

/** Whether something accepts connections on localhost:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForSite(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (backend.output().includes('Frontend dev server exited')) break;
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(60_000) })).ok) return;
    } catch {
      // Not listening or still compiling.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the site base44 dev started did not answer at ${url}:\n${backend.output()}`);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  project = copyProject(APP_ID);
  sitePort = await freePort();
  emulatorPort = await freePort();
  backend = await startVendorDevServer({
    projectDir: project.dir,
    // PORT for next dev; EMULATOR_PORT is where our emulator would listen if npm run dev started it.
    env: { PORT: String(sitePort), EMULATOR_PORT: String(emulatorPort), NEXT_TELEMETRY_DISABLED: '1' },
  });
  // The backend only lets http://localhost pages call it, so the site is opened there.
  siteUrl = `http://localhost:${sitePort}`;
  await waitForSite(`${siteUrl}/`, 200_000);
});

test.afterAll(async () => {
  const pid = backend?.pid;
  await backend?.stop();
  project?.remove();
  // No process or port left behind.
  if (pid) expect(groupAlive(pid)).toBe(false);
  if (backend) expect(await listening(backend.port)).toBe(false);
  if (sitePort) expect(await listening(sitePort)).toBe(false);
});

test('npm run dev under base44 dev talks to the vendor backend and starts no emulator', async () => {
  const output = backend.output();
  expect(output).toContain(`Platform: ${backend.url} (app ${APP_ID}, from base44 dev); no local emulator started.`);
  expect(await listening(emulatorPort)).toBe(false);
});

test('the site renders / with the German copy while public settings cannot be fetched offline', async ({ page }) => {
  const settingsCalls: number[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${backend.url}/api/apps/public/prod/public-settings/by-id/${APP_ID}`)) {
      settingsCalls.push(response.status());
    }
  });
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));

  const response = await page.goto(`${siteUrl}/`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  // The vendor backend proxies public settings to production, which is unreachable offline.
  await expect.poll(() => settingsCalls.length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(settingsCalls.every((status) => status >= 500)).toBe(true);

  // As when the platform is down: the copy stays, nothing crashes, no request loop.
  const callsAfterLoad = settingsCalls.length;
  await page.waitForTimeout(5_000);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  expect(settingsCalls.length - callsAfterLoad).toBeLessThanOrEqual(1);
  expect(errors).toEqual([]);
});

async function loadSdk(page: Page): Promise<void> {
  await page.goto(`${siteUrl}/`);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await page.addScriptTag({ content: await sdkScript() });
}

test('our SDK creates a Todo through the vendor backend, reads it back and receives update_model', async ({ page }) => {
  await loadSdk(page);
  const result = await page.evaluate(
    async ({ appId, serverUrl }) => {
      const client = window.platformSdk.createClient({ appId, serverUrl, token: null });
      // Typed from base44/.types when `base44 types generate` has run (npm test runs it first).
      const todos = client.entities.Todo;
      if (!todos) throw new Error('The client has no Todo entity module');
      const events: { type: string; id: string; title: unknown }[] = [];
      let joined!: () => void;
      const join = new Promise<void>((resolve) => (joined = resolve));
      const stop = todos.subscribe(
        (event) => events.push({ type: event.type, id: event.id, title: event.data?.title }),
        { onJoin: () => joined() },
      );
      await join;
      const created = await todos.create({ title: 'Milch kaufen' });
      const read = await todos.get(created.id);
      const listed = await todos.filter({ title: 'Milch kaufen' });
      const deadline = Date.now() + 10_000;
      while (!events.some((event) => event.id === created.id) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      stop();
      return { created, read, listed: listed.map((todo) => todo.id), events };
    },
    { appId: APP_ID, serverUrl: backend.url },
  );

  expect(result.created).toMatchObject({ title: 'Milch kaufen', done: false });
  expect(result.read).toEqual(result.created);
  expect(result.listed).toEqual([result.created.id]);
  expect(result.events).toContainEqual({ type: 'create', id: result.created.id, title: 'Milch kaufen' });
});
