/**
 * Signing a seeded account in over HTTP, for tests, benchmarks and scripts that drive the emulator
 * from outside. Lives with the emulator because the emulator owns the seeded credentials.
 */

/** The password of every seeded account (see emulator/seed/seed.json and docs/CONTRACTS.md). */
export const SEEDED_PASSWORD = 'emulator-password';

/** Logs an account into an app of the emulator at `baseUrl` and returns its access token. */
export async function loginToken(
  baseUrl: string,
  appId: string,
  email: string,
  password: string = SEEDED_PASSWORD,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/apps/${encodeURIComponent(appId)}/auth/login`, {
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
