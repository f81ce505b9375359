/**
 * The Deno side of the function runner (emulator/functions/deno/) is left out of the
 * project's tsconfig (it uses Deno's globals, not Node's), so Deno's own checker covers it here.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../..');

it('the Deno host script and the base44:runtime module type-check under Deno', () => {
  const result = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'deno'),
    [
      'check',
      '--no-config',
      path.join(ROOT, 'emulator', 'functions', 'deno', 'host.ts'),
      path.join(ROOT, 'emulator', 'functions', 'deno', 'base44-runtime.ts'),
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', DENO_DIR: path.join(ROOT, 'node_modules', '.cache', 'deno') },
      timeout: 60_000,
    },
  );
  expect(result.stderr).not.toMatch(/error/i);
  expect(result.status).toBe(0);
});
