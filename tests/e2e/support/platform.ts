import type { Page } from '@playwright/test';

import { loginToken as loginAt, SEEDED_PASSWORD } from '../../../emulator/seed/seeded-login';

/** The local platform the e2e server starts next to the site (tools/site/start.ts). */
export const PLATFORM_URL = 'http://127.0.0.1:3001';
export { SEEDED_PASSWORD };

/** Logs an account into an app of the e2e platform and returns its access token. */
export function loginToken(appId: string, email: string): Promise<string> {
  return loginAt(PLATFORM_URL, appId, email);
}

/**
 * The visitor arrives with `token` stored, as a returning visitor has it: stored once per tab, so a
 * token the site drops (logout, a 401) stays dropped when a later navigation loads a new document.
 */
export async function useStoredToken(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => {
    if (window.sessionStorage.getItem('e2e-token-seeded')) return;
    window.sessionStorage.setItem('e2e-token-seeded', '1');
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
