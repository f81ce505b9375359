/**
 * The Deno side of the function runner (emulator/functions/deno/: the host script, its door and the
 * base44:runtime module) is left out of the project's tsconfig (it uses Deno's globals, not Node's),
 * so Deno's own checker covers it here, with the seeded apps' function that runs beside it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../../..');

it('the Deno host script, the base44:runtime module and the seeded function type-check under Deno', () => {
  const result = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'deno'),
    [
      'check',
      '--no-config',
      path.join(ROOT, 'emulator', 'functions', 'deno', 'host.ts'),
      path.join(ROOT, 'emulator', 'functions', 'deno', 'base44-runtime.ts'),
      path.join(ROOT, 'emulator', 'seed', 'functions', 'hello', 'entry.ts'),
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
