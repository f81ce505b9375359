import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BASE44_SERVER_URL, linkedAppSettings } from '@/build-steps/site/linked-app';

const ROOT = path.resolve(__dirname, '../../..');
let project: string;

function link(content: string): void {
  mkdirSync(path.join(project, 'base44'), { recursive: true });
  writeFileSync(path.join(project, 'base44', '.app.jsonc'), content);
}

beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'linked-app-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('linkedAppSettings', () => {
  it('adds nothing when no app is named or linked', () => {
    expect(linkedAppSettings({}, project)).toEqual({ settings: {}, description: null });
  });

  it('builds for the app base44/.app.jsonc links, on the Base44 platform', () => {
    link('// linked by hand\n{ "id": "app_42", }\n');
    expect(linkedAppSettings({}, project).settings).toEqual({
      NEXT_PUBLIC_PLATFORM_APP_ID: 'app_42',
      NEXT_PUBLIC_PLATFORM_SERVER_URL: BASE44_SERVER_URL,
    });
  });

  it('takes the id base44 site deploy passes, and keeps a server the environment sets', () => {
    const { settings } = linkedAppSettings(
      { VITE_BASE44_APP_ID: 'app_42', NEXT_PUBLIC_PLATFORM_SERVER_URL: 'https://platform.example' },
      project,
    );
    expect(settings).toEqual({ NEXT_PUBLIC_PLATFORM_APP_ID: 'app_42' });
  });

  it('refuses sources that name different apps, naming both', () => {
    link('{ "id": "app_42" }');
    expect(() => linkedAppSettings({ VITE_BASE44_APP_ID: 'app_7' }, project)).toThrow(
      /VITE_BASE44_APP_ID names app "app_7" but base44\/\.app\.jsonc names "app_42"/,
    );
    expect(() => linkedAppSettings({ NEXT_PUBLIC_PLATFORM_APP_ID: 'other' }, project)).toThrow(/names "app_42"/);
  });

  it('refuses a link file without a valid id, and an invalid id in the environment', () => {
    link('{ "id": "<your-app-id>" }');
    expect(() => linkedAppSettings({}, project)).toThrow(/has no valid "id"/);
    link('{ id: ');
    expect(() => linkedAppSettings({}, project)).toThrow(/is not valid JSONC/);
    expect(() => linkedAppSettings({ VITE_BASE44_APP_ID: '../x' }, project)).toThrow(/is not an app id/);
  });
});

describe('npm run build as base44 site deploy runs it', () => {
  function build(env: Record<string, string>) {
    const clean: NodeJS.ProcessEnv = { ...process.env };
    for (const key of Object.keys(clean)) if (/^(NEXT_PUBLIC_|VITE_BASE44_)/.test(key)) delete clean[key];
    return spawnSync(
      process.execPath,
      [require.resolve('tsx/cli'), path.join(ROOT, 'tools/site/build.ts'), '--force'],
      {
        cwd: project,
        env: { ...clean, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'), ...env },
        encoding: 'utf8',
      },
    );
  }

  it('builds for the linked app, and stops before building when only the editor setting is missing', () => {
    link('{ "id": "app_42" }');
    const result = build({ VITE_BASE44_APP_ID: 'app_42' });
    expect(result.stdout).toContain(`Deploy build for App app_42 (from VITE_BASE44_APP_ID) on ${BASE44_SERVER_URL}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('NEXT_PUBLIC_EDITOR_ORIGINS is not set');
    expect(result.stderr).not.toContain('NEXT_PUBLIC_PLATFORM_APP_ID is not set');
    expect(result.stderr).not.toContain('NEXT_PUBLIC_PLATFORM_SERVER_URL is not set');
  }, 60_000);

  it('stops when nothing names the app, and says how to link it', () => {
    const result = build({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('NEXT_PUBLIC_PLATFORM_APP_ID is not set');
    expect(result.stderr).toContain('npx base44 link');
  }, 60_000);

  it('stops when the linked app and the id base44 passes disagree', () => {
    link('{ "id": "app_42" }');
    const result = build({ VITE_BASE44_APP_ID: 'app_7' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Refusing to build');
  }, 60_000);
});
