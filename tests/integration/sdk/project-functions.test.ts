/**
 * Backend functions written for the platform (base44/functions/<name>/entry.ts, a Deno.serve handler
 * with a client from createClientFromRequest) run unchanged on Deno inside the emulator and are
 * called through our SDK's functions.invoke / functions.fetch, acting as the caller.
 */
import { cpSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startFunctionProcess } from '@/emulator/functions/deno-process';
import { isPlatformError } from '@/lib/sdk/core/errors';
import { SEEDED_ACCOUNTS, SEEDED_APPS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';
import { listeningPortsOf } from '@/tests/support/listening-ports';

import { clientFor, rejectionOf, serviceClient, signedInClient, type EmulatorHandle, type TestClient } from './harness';

jest.setTimeout(120_000);

const REPO_FUNCTIONS = path.join(__dirname, '../../../base44/functions');
const FIXTURE_FUNCTIONS = path.join(__dirname, 'fixtures/project/base44/functions');
const APP = SEEDED_APPS.public;

interface Echo {
  pid: number;
  method: string;
  url: string;
  body: string;
  appId: string | null;
  apiUrl: string | null;
  serviceAuthorization: string | null;
  authorization: string | null;
  custom: string | null;
}

/** A request straight to a port, with any Host (fetch would not send a foreign one). */
function direct(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/apps/${APP}/functions/echo`,
      headers,
    });
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.end('{"hello":"direct"}');
  });
}

function statusOf(error: unknown): [number | undefined, string | undefined] | null {
  return isPlatformError(error) ? [error.status, error.code] : null;
}

describe('the example functions of the project (base44/functions)', () => {
  let handle: EmulatorHandle & { close(): Promise<void> };
  beforeAll(async () => {
    const emulator = await startTestEmulator({ projectFunctionsDir: REPO_FUNCTIONS });
    handle = { emulator, url: emulator.url, close: () => emulator.close() };
  });
  afterAll(() => handle.close());

  it('answers as the caller through functions.invoke, and reads through asServiceRole', async () => {
    const admin = await signedInClient(handle, SEEDED_ACCOUNTS.admin.email);
    await admin.entities.Todo.create({ title: 'by the admin' });
    const user = await signedInClient(handle, SEEDED_ACCOUNTS.user.email);
    await user.entities.Todo.create({ title: 'by the user' });
    const everyTodo = await serviceClient(handle).asServiceRole.entities.Todo.list();

    const { data, status } = await user.functions.invoke<{ email: string; role: string; todoCount: number }>('whoAmI');
    expect(status).toBe(200);
    expect(data).toEqual({ email: SEEDED_ACCOUNTS.user.email, role: 'user', todoCount: everyTodo.length });
    expect(everyTodo.length).toBeGreaterThanOrEqual(2);

    const asAdmin = await admin.functions.invoke<{ email: string; role: string }>('whoAmI');
    expect(asAdmin.data).toMatchObject({ email: SEEDED_ACCOUNTS.admin.email, role: 'admin' });
  });

  it("the documentation's own example greets by the name sent, else by the caller's name", async () => {
    const user = await signedInClient(handle, SEEDED_ACCOUNTS.user.email);
    expect((await user.functions.invoke('sayHello', { name: 'Ada' })).data).toEqual({ message: 'Hello, Ada!' });
    const me = await user.auth.me();
    expect((await user.functions.invoke('sayHello', {})).data).toEqual({ message: `Hello, ${me.full_name}!` });
  });

  it('a visitor without a token gets the error the function itself returns', async () => {
    const error = await rejectionOf(clientFor(handle).functions.invoke('whoAmI'));
    expect(statusOf(error)?.[0]).toBe(500);
  });
});

describe('the Deno runner', () => {
  let dir: string;
  let functionsDir: string;
  let handle: EmulatorHandle & { close(): Promise<void> };
  const logs: string[] = [];
  let user: TestClient;

  beforeAll(async () => {
    // A copy, so that a test may edit a function and see it reload.
    dir = mkdtempSync(path.join(tmpdir(), 'project-functions-'));
    functionsDir = path.join(dir, 'functions');
    cpSync(FIXTURE_FUNCTIONS, functionsDir, { recursive: true });
    const emulator = await startTestEmulator({
      projectFunctionsDir: functionsDir,
      functionTimeoutMs: 2_000,
      functionLog: (line) => logs.push(line),
    });
    handle = { emulator, url: emulator.url, close: () => emulator.close() };
    user = await signedInClient(handle, SEEDED_ACCOUNTS.user.email);
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the project functions by their names (the CLI prints them)', async () => {
    expect(await handle.emulator.functionNames()).toEqual([
      'broken',
      'echo',
      'exported',
      'hang',
      'renamed',
      'reports/daily',
      'secret',
    ]);
  });

  it("passes the caller's token and the platform headers; a caller cannot forge the platform's", async () => {
    const forging = await signedInClient(handle, SEEDED_ACCOUNTS.user.email, {
      headers: {
        'X-Custom': 'kept',
        'Base44-Api-Url': 'http://evil.example',
        'Base44-Service-Authorization': 'Bearer stolen',
      },
    });
    const { data, headers } = await forging.functions.invoke<Echo>('echo', { hello: 'there' });
    expect(data).toMatchObject({
      method: 'POST',
      url: `${handle.url}/api/apps/${APP}/functions/echo`,
      body: JSON.stringify({ hello: 'there' }),
      appId: APP,
      apiUrl: handle.url,
      serviceAuthorization: `Bearer ${serviceTokenFor(APP)}`,
      authorization: expect.stringMatching(/^Bearer \S+$/),
      custom: 'kept',
    });
    expect(headers.get('x-function')).toBe('echo');
    // CORS stays the emulator's policy: the function's own wildcard does not leak through.
    expect(headers.get('access-control-allow-origin')).toBeNull();
    expect(logs).toEqual(
      expect.arrayContaining([
        `[echo] echo called with POST /api/apps/${APP}/functions/echo`,
        '[echo] echo writes to stderr too',
      ]),
    );
  });

  it('functions.fetch reaches the same function with any method, path and query', async () => {
    const response = await user.functions.fetch('/echo/items/7?sort=name', { method: 'PATCH', body: 'raw' });
    expect(response.status).toBe(200);
    const echo = (await response.json()) as Echo;
    expect(echo).toMatchObject({ method: 'PATCH', body: 'raw', appId: APP });
    expect(new URL(echo.url).pathname + new URL(echo.url).search).toBe('/api/functions/echo/items/7?sort=name');
  });

  it('functions.fetch reaches a nested function by the longest name its path starts with', async () => {
    const response = await user.functions.fetch('/reports/daily/today');
    expect(await response.json()).toEqual({ from: 'reports/daily' });
  });

  it('finds functions by function.jsonc, by nested folder and by default export', async () => {
    expect((await user.functions.invoke('renamed')).data).toEqual({ from: 'configured/main.ts' });
    expect((await user.functions.invoke('reports/daily')).data).toEqual({ from: 'reports/daily' });
    expect((await user.functions.invoke('exported')).data).toEqual({ from: 'default export', method: 'POST' });
    // The folder of a configured function is not a second name for it.
    expect(statusOf(await rejectionOf(user.functions.invoke('configured')))).toEqual([404, 'function_not_found']);
  });

  it('base44:runtime gives secrets from the environment and reports failed waitUntil work', async () => {
    process.env.PROJECT_FUNCTION_TEST_SECRET = 'from-the-environment';
    try {
      expect((await user.functions.invoke('secret')).data).toEqual({ secret: 'from-the-environment' });
    } finally {
      delete process.env.PROJECT_FUNCTION_TEST_SECRET;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logs.some((line) => line.startsWith('[secret]') && line.includes('late work failed'))).toBe(true);
    // The rejection did not end the process: the function still answers.
    expect((await user.functions.invoke('secret')).status).toBe(200);
  });

  it('a function that fails to load answers 500 and its error reaches the log', async () => {
    expect(statusOf(await rejectionOf(user.functions.invoke('broken')))).toEqual([500, 'function_error']);
    expect(logs.some((line) => line.startsWith('[broken]') && line.includes('broken on purpose'))).toBe(true);
  });

  it('a function that hangs is cut off with 504 and runs again on the next call', async () => {
    const started = Date.now();
    expect(statusOf(await rejectionOf(user.functions.invoke('hang')))).toEqual([504, 'function_timeout']);
    expect(Date.now() - started).toBeLessThan(60_000);
    // Another function is not affected, and the hung one is started afresh (and hangs again).
    expect((await user.functions.invoke('renamed')).status).toBe(200);
    expect(statusOf(await rejectionOf(user.functions.invoke('hang')))).toEqual([504, 'function_timeout']);
  });

  it('restarts a function when its files change', async () => {
    const entry = path.join(functionsDir, 'configured', 'main.ts');
    writeFileSync(entry, 'Deno.serve(() => Response.json({ from: "edited" }));\n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(entry, later, later);
    expect((await user.functions.invoke('renamed')).data).toEqual({ from: 'edited' });
  });

  it('a broken function.jsonc answers 500 naming the file, and changes nothing else', async () => {
    const bad = mkdtempSync(path.join(tmpdir(), 'project-functions-bad-'));
    try {
      cpSync(path.join(FIXTURE_FUNCTIONS, 'configured'), path.join(bad, 'configured'), { recursive: true });
      writeFileSync(
        path.join(bad, 'configured', 'function.jsonc'),
        '{ "name": "renamed", "entry": "../../../etc/passwd" }',
      );
      const emulator = await startTestEmulator({ projectFunctionsDir: bad, functionLog: () => undefined });
      try {
        const client = await signedInClient({ emulator, url: emulator.url }, SEEDED_ACCOUNTS.user.email);
        const error = await rejectionOf(client.functions.invoke('renamed'));
        expect(statusOf(error)).toEqual([500, 'function_config_invalid']);
        expect(isPlatformError(error) && error.message).toContain('entry file ../../../etc/passwd not found');
      } finally {
        await emulator.close();
      }
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  describe("a function's own port answers the emulator only", () => {
    let port: number;
    beforeAll(async () => {
      const { data } = await user.functions.invoke<Echo>('echo');
      const ports = listeningPortsOf(data.pid);
      expect(ports).toHaveLength(1);
      port = ports[0] as number;
    });

    const forged = {
      'Content-Type': 'application/json',
      'Base44-App-Id': APP,
      'Base44-Api-Url': 'http://127.0.0.1:1',
      'Base44-Service-Authorization': `Bearer ${serviceTokenFor(APP)}`,
    };
    it.each([
      ['a local process without the key', () => ({ host: `127.0.0.1:${port}` })],
      ['a local process forging the platform headers', () => ({ host: `127.0.0.1:${port}`, ...forged })],
      ['a guessed key', () => ({ host: `localhost:${port}`, 'X-Emulator-Function-Key': 'a'.repeat(43), ...forged })],
      [
        'a DNS-rebinding page (foreign Host and Origin)',
        () => ({ host: `rebind.example:${port}`, origin: `http://rebind.example:${port}`, ...forged }),
      ],
    ])('refuses %s, and the function never runs', async (_name, headers) => {
      const before = logs.filter((line) => line.startsWith('[echo] echo called')).length;
      const answer = await direct(port, headers());
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain('serviceAuthorization');
      expect(logs.filter((line) => line.startsWith('[echo] echo called'))).toHaveLength(before);
    });

    it('checks the Host as well as the key: only its own port under a loopback name is served', async () => {
      // A process of our own with a key we know, to try the Host check on its own.
      const key = 'k'.repeat(43);
      const dir = path.join(functionsDir, 'echo');
      const echo = startFunctionProcess({
        entry: { name: 'echo', entryPath: path.join(dir, 'entry.ts'), dir, root: functionsDir },
        origin: 'http://127.0.0.1:1',
        key,
        log: () => undefined,
        startTimeoutMs: 60_000,
      });
      try {
        const own = await echo.port;
        const withHost = (host: string) => direct(own, { host, 'X-Emulator-Function-Key': key });
        for (const host of [`127.0.0.1:${own}`, `localhost:${own}`])
          expect({ host, status: (await withHost(host)).status }).toEqual({ host, status: 200 });
        for (const host of [`rebind.example:${own}`, `127.0.0.1.nip.io:${own}`, `127.0.0.1:${own + 1}`, '127.0.0.1'])
          expect({ host, status: (await withHost(host)).status }).toEqual({ host, status: 403 });
        const seen = JSON.parse((await withHost(`127.0.0.1:${own}`)).body) as Echo & { headers: string[] };
        expect(seen.url).toBe(`http://127.0.0.1:1/api/apps/${APP}/functions/echo`);
        expect(seen.headers).not.toContain('x-emulator-function-key');
      } finally {
        echo.child.kill();
        await echo.exited;
      }
    });

    it('still answers the calls the emulator forwards, without showing the function its key', async () => {
      const { data } = await user.functions.invoke<Echo & { headers: string[] }>('echo', { again: true });
      expect(data.url).toBe(`${handle.url}/api/apps/${APP}/functions/echo`);
      expect(data.headers).not.toContain('x-emulator-function-key');
      expect(data.headers).toContain('host');
    });
  });

  it('stops every function process when the emulator closes', async () => {
    const { data } = await user.functions.invoke<Echo>('echo');
    expect(() => process.kill(data.pid, 0)).not.toThrow();
    const emulator = await startTestEmulator({ projectFunctionsDir: functionsDir, functionLog: () => undefined });
    const other = await signedInClient({ emulator, url: emulator.url }, SEEDED_ACCOUNTS.user.email);
    const { data: second } = await other.functions.invoke<Echo>('echo');
    await emulator.close();
    expect(() => process.kill(second.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
