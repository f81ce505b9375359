import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

import type { RunningEmulator } from '@/emulator/core/types';
import { browserExecutable, PLAYWRIGHT_CHROMIUM_FLAGS } from '@/support/browser';
import { SEEDED_ACCOUNTS, SEEDED_PASSWORD, startTestEmulator } from '@/tests/support/emulator';

/**
 * The login form's Origin check with a real Chromium: the emulator's own page logs in, a page of
 * another site that posts the same form (login CSRF) is refused. The site is a tiny local server (a
 * redirect target cannot be intercepted); the attacker's page is answered by request interception.
 */

jest.setTimeout(60_000);

let emulator: RunningEmulator;
let browser: Browser;
let site: Server;
let SITE: string;
const APP = 'coming-soon';

beforeAll(async () => {
  site = createServer((_request, response) => response.end('site'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  SITE = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  emulator = await startTestEmulator({ siteOrigins: [SITE] });
  browser = await chromium.launch({ executablePath: browserExecutable(), args: PLAYWRIGHT_CHROMIUM_FLAGS });
});
afterAll(async () => {
  await browser.close();
  await emulator.close();
  await new Promise((resolve) => site.close(resolve));
});

it("logs in from the emulator's own login page", async () => {
  const page = await browser.newPage();
  await page.goto(`${emulator.url}/login?app_id=${APP}&from_url=${encodeURIComponent(`${SITE}/back`)}`);
  await page.getByLabel('E-mail').fill(SEEDED_ACCOUNTS.user.email);
  await page.getByLabel('Password').fill(SEEDED_PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(`${SITE}/back?access_token=`)),
    page.getByRole('button', { name: 'Log in' }).click(),
  ]);
  expect(new URL(page.url()).searchParams.get('access_token')).toMatch(/^ey/);
  await page.close();
});

it('refuses the same form posted from another site, without a redirect carrying a token', async () => {
  const page = await browser.newPage();
  const attacker = 'http://attacker.test';
  const fields = { app_id: APP, from_url: `${SITE}/`, email: SEEDED_ACCOUNTS.user.email, password: SEEDED_PASSWORD };
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  await page.route(`${attacker}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<form method="post" action="${emulator.url}/login">${inputs}<button>go</button></form>`,
    }),
  );
  await page.goto(`${attacker}/`);
  const [response] = await Promise.all([
    page.waitForResponse(`${emulator.url}/login`),
    page.getByRole('button', { name: 'go' }).click(),
  ]);
  expect(response.status()).toBe(403);
  expect(await response.text()).toContain('Login refused');
  expect(response.headers().location).toBeUndefined();
  expect(page.url()).toBe(`${emulator.url}/login`);
  await page.close();
});
