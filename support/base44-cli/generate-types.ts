/**
 * Runs the vendor CLI's `base44 types generate` for a project folder, offline and unattended: a
 * temporary HOME (the command needs no login), no telemetry, and an app id from the environment when
 * the folder is not linked (the CLI insists on one, but the types come only from base44/entities).
 * The CLI also adds `base44/.types/*.d.ts` to tsconfig.json's `include` when it is missing; our
 * committed tsconfig.json already lists it, so a run that edits the file is reported as an error
 * instead of leaving a reformatted tsconfig.json behind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BASE44_LAUNCHER, REPO_ROOT } from './paths';

/** The file the CLI writes, relative to the project folder. */
export const GENERATED_TYPES_FILE = path.join('base44', '.types', 'types.d.ts');

/** The app id the CLI gets when base44/.app.jsonc is missing; types do not depend on it. */
const UNLINKED_APP_ID = 'local-types';

export function generateEntityTypes(projectDir = REPO_ROOT): string {
  const tsconfig = path.join(projectDir, 'tsconfig.json');
  const before = existsSync(tsconfig) ? readFileSync(tsconfig) : null;
  const home = mkdtempSync(path.join(tmpdir(), 'base44-types-home-'));
  try {
    const linked = existsSync(path.join(projectDir, 'base44', '.app.jsonc'));
    const result = spawnSync(process.execPath, [BASE44_LAUNCHER, 'types', 'generate'], {
      cwd: projectDir,
      encoding: 'utf8',
      env: {
        ...process.env,
        HOME: home,
        CI: 'true',
        BASE44_DISABLE_TELEMETRY: '1',
        ...(linked || process.env.BASE44_APP_ID ? {} : { BASE44_APP_ID: UNLINKED_APP_ID }),
      },
    });
    if (result.status !== 0) {
      throw new Error(`base44 types generate failed (${result.status}):\n${result.stdout}${result.stderr}`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  if (before && !readFileSync(tsconfig).equals(before)) {
    writeFileSync(tsconfig, before);
    throw new Error(
      'base44 types generate rewrote tsconfig.json (restored): its "include" must list "base44/.types/*.d.ts".',
    );
  }
  const file = path.join(projectDir, GENERATED_TYPES_FILE);
  if (!existsSync(file)) throw new Error(`base44 types generate wrote no ${GENERATED_TYPES_FILE}`);
  return file;
}
