/**
 * `?server_url=` and `?app_base_url=` from a crafted link. Only a bare, allowlisted origin is taken:
 * a path on an allowed origin once was stored and sent every later bearer token to `{path}/api` and
 * the login redirect to `{path}/login`, leaving the visitor unable to sign in until storage was
 * cleared. The e2e build allows the local platform's origin (its configured server) and nothing else.
 */
import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures';
import { PLATFORM_URL } from '../support/platform';

const HEADING = 'Unsere neue Website ist fast startklar';
const SETTINGS_PATH = '/api/apps/public/prod/public-settings/by-id/coming-soon';

function platformRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.port === '3001' || url.origin !== 'http://127.0.0.1:3000') seen.push(`${url.origin}${url.pathname}`);
  });
  return seen;
}

async function storedOverrides(page: Page): Promise<Array<string | null>> {
  return page.evaluate(() => [localStorage.getItem('base44_server_url'), localStorage.getItem('base44_app_base_url')]);
}

test.describe('address-bar overrides are bare allowlisted origins', () => {
  for (const value of [
    `${PLATFORM_URL}/evil`,
    `${PLATFORM_URL}/evil/`,
    `${PLATFORM_URL}/?next=1`,
    `${PLATFORM_URL}/#x`,
    'http://user:pass@127.0.0.1:3001',
    'http://localhost:3001',
    'javascript:alert(1)',
  ]) {
    test(`?server_url=${value} is ignored and not remembered`, async ({ page }) => {
      const calls = platformRequests(page);
      await page.goto(`/?server_url=${encodeURIComponent(value)}`);
      await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
      await expect.poll(() => calls).toContain(`${PLATFORM_URL}${SETTINGS_PATH}`);
      expect(calls.every((call) => call.startsWith(`${PLATFORM_URL}/api/`))).toBe(true);
      expect(await storedOverrides(page)).toEqual([null, null]);
    });
  }

  test('a bare allowlisted origin is taken and remembered without a trailing slash', async ({ page }) => {
    const calls = platformRequests(page);
    await page.goto(`/?server_url=${encodeURIComponent(`${PLATFORM_URL}/`)}`);
    await expect.poll(() => calls).toContain(`${PLATFORM_URL}${SETTINGS_PATH}`);
    expect(await storedOverrides(page)).toEqual([PLATFORM_URL, null]);
  });

  test('?app_base_url= with a path does not move the login page', async ({ page }) => {
    await page.goto(`/?app_id=members-only&app_base_url=${encodeURIComponent(`${PLATFORM_URL}/evil`)}`);
    await page.waitForURL((url) => url.origin === PLATFORM_URL);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});

test.describe('remembered overrides', () => {
  async function rememberFromAnEarlierVersion(page: Page, value: string): Promise<void> {
    await page.addInitScript((stored) => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('base44_server_url', stored);
      localStorage.setItem('base44_app_base_url', stored);
    }, value);
  }

  test('path-bearing values remembered by an earlier version are dropped, not used', async ({ page }) => {
    await rememberFromAnEarlierVersion(page, `${PLATFORM_URL}/evil`);
    const calls = platformRequests(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect.poll(() => calls).toContain(`${PLATFORM_URL}${SETTINGS_PATH}`);
    expect(calls.filter((call) => call.includes('/evil'))).toEqual([]);
    expect(await storedOverrides(page)).toEqual([null, null]);
  });

  test('a remembered path-bearing login page is not where the login redirect goes', async ({ page }) => {
    await rememberFromAnEarlierVersion(page, `${PLATFORM_URL}/evil`);
    await page.goto('/?app_id=members-only');
    await page.waitForURL((url) => url.origin === PLATFORM_URL);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
