import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { deployProblems, NO_EDITOR } from '@/lib/config/env';

const CONFIGURED = {
  NEXT_PUBLIC_PLATFORM_SERVER_URL: 'https://platform.example',
  NEXT_PUBLIC_PLATFORM_APP_ID: 'my-app',
  NEXT_PUBLIC_EDITOR_ORIGINS: 'https://editor.platform.example',
};

describe('deployProblems', () => {
  it('accepts a build for a hosted platform and editor, or for no editor on purpose', () => {
    expect(deployProblems(CONFIGURED)).toEqual([]);
    expect(deployProblems({ ...CONFIGURED, NEXT_PUBLIC_EDITOR_ORIGINS: NO_EDITOR })).toEqual([]);
  });

  it('names every missing setting of a build that would talk to the local emulator', () => {
    const problems = deployProblems({});
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/NEXT_PUBLIC_PLATFORM_SERVER_URL is not set.*127\.0\.0\.1:3001/);
    expect(problems.join('\n')).toContain('NEXT_PUBLIC_PLATFORM_APP_ID is not set');
    expect(problems.join('\n')).toContain('NEXT_PUBLIC_EDITOR_ORIGINS is not set');
  });

  it.each([
    ['the emulator', { NEXT_PUBLIC_PLATFORM_SERVER_URL: 'http://127.0.0.1:3001' }],
    ['plain http', { NEXT_PUBLIC_PLATFORM_SERVER_URL: 'http://platform.example' }],
    ['a local editor', { NEXT_PUBLIC_EDITOR_ORIGINS: 'https://editor.platform.example, http://localhost:3110' }],
    ['an editor that is not an origin', { NEXT_PUBLIC_EDITOR_ORIGINS: 'editor.platform.example' }],
  ])('refuses %s', (_label, override) => {
    expect(deployProblems({ ...CONFIGURED, ...override })).toHaveLength(1);
  });
});

describe('npm run build without platform settings', () => {
  it('stops before building, with exit code 1 and the list of what is missing', () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of Object.keys(env)) if (/^(NEXT_PUBLIC_|VITE_BASE44_)/.test(key)) delete env[key];
    // Run from an empty folder: the build reads the app link (base44/.app.jsonc) from the working
    // directory, and a developer's own link must not change what this test sees.
    const cwd = mkdtempSync(path.join(tmpdir(), 'unlinked-'));
    const root = path.resolve(__dirname, '../../..');
    const result = spawnSync(
      process.execPath,
      [require.resolve('tsx/cli'), path.join(root, 'tools/site/build.ts'), '--force'],
      { cwd, env: { ...env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json') }, encoding: 'utf8' },
    );
    rmSync(cwd, { recursive: true, force: true });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Refusing to build out/ for deployment');
    expect(result.stderr).toContain('NEXT_PUBLIC_PLATFORM_SERVER_URL is not set');
    expect(result.stderr).toContain('npm run build:local');
  }, 60_000);
});
