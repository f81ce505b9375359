import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { EmulatorOptions, RunningEmulator, Seed } from '@/emulator/core/types';
import { schemalessDefaultSeed } from '@/emulator/seed/seed';
import { loginToken as loginAt, SEEDED_PASSWORD } from '@/emulator/seed/seeded-login';
import { startEmulator } from '@/emulator/start/server';

/**
 * The default seed (emulator/seed/seed.json) for tests, every app `schemaless`: a suite may use any
 * entity name without a project folder. A suite about schemas passes `projectDir` and its own seed.
 */
export function testSeed(): Seed {
  return schemalessDefaultSeed();
}

/**
 * Writes (or rewrites) one entity file of a project folder: a definition object as JSON, or text as
 * it is (JSONC with comments, a deliberately broken file).
 */
export function writeEntityFile(projectDir: string, file: string, definition: object | string): void {
  const text = typeof definition === 'string' ? definition : JSON.stringify(definition);
  writeFileSync(path.join(projectDir, 'base44', 'entities', file), text);
}

/**
 * A fresh project folder in the temporary directory (its name starts with `prefix`) whose
 * `base44/entities` holds these files, as a Base44 CLI project declares its entities; pass it to
 * `startTestEmulator({ projectDir })` and remove it in `afterAll`.
 */
export function entityProject(
  prefix: string,
  files: readonly (readonly [file: string, definition: object | string])[],
): string {
  const projectDir = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(projectDir, 'base44', 'entities'), { recursive: true });
  for (const [file, definition] of files) writeEntityFile(projectDir, file, definition);
  return projectDir;
}

/**
 * Starts the local platform emulator for a test suite: port 0 (a free port), quiet, in memory unless
 * `dataDir` is given, on the schemaless `testSeed()` unless `seed` is given. Close it in
 * `afterAll`/`afterEach` with `await emulator.close()`.
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, quiet: true, seed: testSeed(), ...options });
}

export { SEEDED_PASSWORD };

export const SEEDED_APPS = {
  public: 'coming-soon',
  loginRequired: 'members-only',
  registeredOnly: 'invite-only',
} as const;

export const SEEDED_ACCOUNTS = {
  admin: { id: 'user-admin', email: 'admin@example.com' },
  user: { id: 'user-user', email: 'user@example.com' },
  member: { id: 'user-member', email: 'member@example.com' },
  outsider: { id: 'user-outsider', email: 'outsider@example.com' },
} as const;

/** The service token of a seeded app. */
export function serviceTokenFor(appId: string): string {
  return `service-token-${appId}`;
}

/** Logs a seeded (or any) account into an app of a running emulator and returns its access token. */
export function loginToken(
  emulator: Pick<RunningEmulator, 'url'>,
  appId: string,
  email: string,
  password: string = SEEDED_PASSWORD,
): Promise<string> {
  return loginAt(emulator.url, appId, email, password);
}
