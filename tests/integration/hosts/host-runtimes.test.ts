/**
 * The host matrix's servers from npm (support/hosts/runtime/install.mjs: wrangler on Node 22,
 * superstatic, serve) where they cannot be installed: the install fails with the reason and leaves
 * nothing behind that a later run could take for a finished install, so the host matrix fails
 * instead of skipping hosts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { freePort } from '@/support/processes';

const INSTALLER = path.resolve(__dirname, '../../../support/hosts/runtime/install.mjs');

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'host-runtimes-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs ensureHostRuntimes for a fresh root, with npm pointed at a registry that is not there. */
function installWithoutRegistry(root: string, registry: string): Promise<{ code: number | null; stderr: string }> {
  const script = `import(${JSON.stringify(pathToFileURL(INSTALLER).href)}).then((m) => m.ensureHostRuntimes({ root: ${JSON.stringify(root)} })).then(() => process.exit(0), (error) => { console.error(error.message); process.exit(1); });`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        ...process.env,
        npm_config_registry: registry,
        npm_config_cache: path.join(scratch, 'npm-cache'),
        npm_config_fetch_retries: '0',
        npm_config_offline: 'false',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

it('fails with the reason and leaves no install behind when the registry cannot be reached', async () => {
  const root = path.join(scratch, 'repo');
  const registry = `http://127.0.0.1:${await freePort()}/`;
  const { code, stderr } = await installWithoutRegistry(root, registry);
  expect(code).toBe(1);
  expect(stderr).toContain(
    'is the npm registry reachable? The host matrix needs wrangler, Node 22, superstatic and serve from it once',
  );
  expect(stderr).toMatch(/ECONNREFUSED/);
  const cache = path.join(root, 'node_modules', '.cache', 'hosts');
  expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
}, 60_000);
