import type { Page } from '@playwright/test';

/** The local platform the e2e server starts next to the site (scripts/start.ts). */
export const PLATFORM_URL = 'http://127.0.0.1:3001';
export const SEEDED_PASSWORD = 'emulator-password';

export async function loginToken(appId: string, email: string, password = SEEDED_PASSWORD): Promise<string> {
  const response = await fetch(`${PLATFORM_URL}/api/apps/${appId}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-App-Id': appId },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login of ${email} to ${appId} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Puts a token into the site's storage before any page script runs, as a returning visitor has. */
export async function useStoredToken(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => {
    window.localStorage.setItem('base44_access_token', value);
    window.localStorage.setItem('token', value);
  }, token);
}

export interface PageVisit {
  page_name: string;
  user_id?: string;
  created_by?: string;
}

/** The page-visit log of an app, read with its service token. */
export async function pageVisits(appId: string): Promise<PageVisit[]> {
  const response = await fetch(`${PLATFORM_URL}/api/app-logs/${appId}?limit=1000`, {
    headers: { Authorization: `Bearer service-token-${appId}`, 'X-App-Id': appId },
  });
  if (!response.ok) throw new Error(`reading logs failed: ${response.status}`);
  return (await response.json()) as PageVisit[];
}
