import { startEmulator } from '@/emulator/server';
import type { EmulatorOptions, RunningEmulator } from '@/emulator/types';

/**
 * Starts the local platform emulator for a test suite: port 0 (a free port), quiet, in memory unless
 * `dataDir` is given. Close it in `afterAll`/`afterEach` with `await emulator.close()`.
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, quiet: true, ...options });
}

/** The password of every seeded account (see emulator/seed.json and docs/CONTRACTS.md). */
export const SEEDED_PASSWORD = 'emulator-password';

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

/** Logs a seeded (or any) account into an app over HTTP and returns its access token. */
export async function loginToken(
  emulator: RunningEmulator,
  appId: string,
  email: string,
  password: string = SEEDED_PASSWORD,
): Promise<string> {
  const response = await fetch(`${emulator.url}/api/apps/${encodeURIComponent(appId)}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { access_token?: unknown; message?: unknown };
  if (!response.ok || typeof body.access_token !== 'string') {
    throw new Error(`Login of ${email} into ${appId} failed with ${response.status}: ${String(body.message)}`);
  }
  return body.access_token;
}
