/**
 * The visitor flows that must hold on every host the site is deployed to, as functions of the site's
 * URL (`site`, e.g. `http://127.0.0.1:3301`, no trailing slash). tests/e2e/hosts/*.spec.ts run them on
 * the header-less hosts (support/hosts); a host matrix runs the same functions on every other host.
 * Each flow checks what a visitor sees and what leaves the page, never how the host got there
 * (status codes and headers are probed separately), so one flow fits every host.
 */
import { expect, type Page } from '@playwright/test';

import { NOT_FOUND_TITLE } from '../../../lib/site/missing-page';
import type { EditorFixture } from '../fixtures/editor/server';
import { received, waitForMessage } from '../frame/helpers';
import { placesCarrying, recordRequests } from '../site/request-log';
// Not a React hook, whatever its name says: it stores a token before the page loads.
import { loginToken, PLATFORM_URL, SEEDED_PASSWORD, useStoredToken as storeTokenBeforeLoad } from '../support/platform';

export const HEADING = 'Unsere neue Website ist fast startklar';
export const SITE_TITLE = 'Bald verfügbar – Unsere neue Website';
const COPY = /freuen uns darauf, Ihnen schon bald unseren neuen digitalen\s+Auftritt zu präsentieren/;

/**
 * Records, in the page before every frame it paints (requestAnimationFrame runs right before each
 * paint, from the first on), the visible level-1 headings and the title. A string, not a function:
 * it runs before the page's own scripts and must not depend on the test's compiled helpers.
 */
const PAINT_RECORDER = `(() => {
  const seen = [];
  window.__paints = seen;
  const record = () => {
    const visible = [...document.querySelectorAll('h1')].filter((h1) => h1.getClientRects().length > 0);
    seen.push({ headings: visible.map((h1) => h1.textContent.trim()), title: document.title });
    if (seen.length < 600) requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
})()`;

interface Paint {
  headings: string[];
  title: string;
}

/** Starts recording what each paint of the next document shows (see PAINT_RECORDER). */
export async function recordPaints(page: Page): Promise<() => Promise<Paint[]>> {
  await page.addInitScript(PAINT_RECORDER);
  return () => page.evaluate(() => (window as unknown as { __paints: Paint[] }).__paints.slice());
}

/** React attached itself to the page's heading: the scripts ran under the page's policy. */
async function expectHydrated(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const h1 = [...document.querySelectorAll('h1')].find((heading) => heading.getClientRects().length > 0);
        return h1 !== undefined && Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
      }),
    )
    .toBe(true);
}

/** `path` shows the German coming-soon copy and title, hydrated. */
export async function expectCopy(page: Page, site: string, path: string): Promise<void> {
  await page.goto(`${site}${path}`);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await expect(page.getByText(COPY)).toBeVisible();
  await expect(page).toHaveTitle(SITE_TITLE);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
  await expectHydrated(page);
}

/**
 * `path` shows the 404 screen from the first paint on (never the copy, not even for one frame),
 * with the German title, the requested name once hydrated, Go Home, and kept out of search indexes
 * (status 404, or `noindex` where the host answered with a page and 200).
 */
export async function expectNotFoundScreen(
  page: Page,
  site: string,
  path: string,
  shownName: string | null,
): Promise<void> {
  const paints = await recordPaints(page);
  const response = await page.goto(`${site}${path}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  if (shownName !== null) {
    await expect(page.getByText(`The page “${shownName}” could not be found in this application.`)).toBeVisible();
  }
  await expectHydrated(page);
  await expect(page).toHaveTitle(NOT_FOUND_TITLE);
  await expect(page.getByRole('link', { name: 'Go Home' })).toBeVisible();
  await expect(page.getByText(COPY)).toBeHidden();
  const noindex = await page.locator('meta[name="robots"][content*="noindex"]').count();
  expect(response?.status() === 404 || noindex > 0, 'status 404 or noindex').toBe(true);
  const painted = await paints();
  expect(painted.length).toBeGreaterThan(0);
  expect(painted.filter((paint) => paint.headings.includes(HEADING) || paint.title === SITE_TITLE)).toEqual([]);
}

/** From the 404 screen at `path`, Go Home leads to the copy, with its own title and indexable again. */
export async function expectGoHome(page: Page, site: string, path: string): Promise<void> {
  await page.goto(`${site}${path}`);
  await expectHydrated(page);
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(`${site}/`);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await expect(page.getByText(COPY)).toBeVisible();
  await expect(page).toHaveTitle(SITE_TITLE);
  await expect(page.locator('meta[name="robots"][content*="noindex"]')).toHaveCount(0);
}

/** An admin sees the admin note on the 404 screen at `path`. */
export async function expectAdminNote(page: Page, site: string, path: string): Promise<void> {
  await storeTokenBeforeLoad(page, await loginToken('coming-soon', 'admin@example.com'));
  await page.goto(`${site}${path}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText("AI hasn't implemented this page yet");
}

/**
 * A crafted link to `path` with a live token: the page or the 404 screen (`heading`), the token stored
 * and gone from the address, the visitor still on `site`, nothing crashed.
 */
export async function expectCraftedPath(page: Page, site: string, path: string, heading: string): Promise<void> {
  const token = await loginToken('coming-soon', 'user@example.com');
  await page.goto(`${site}${path}?access_token=${encodeURIComponent(token)}&keep=1`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect.poll(() => page.url()).not.toContain(token);
  const url = new URL(page.url());
  expect(url.origin).toBe(site);
  expect(url.searchParams.get('keep')).toBe('1');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByText("This page couldn't load")).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBe(token);
}

/**
 * The token of a login redirect to `path` never shows in a request's URL or Referer (the page's
 * scripts are fetched before any script can strip it), but reaches the platform as a bearer token.
 */
export async function expectTokenKeptOutOfRequests(page: Page, site: string, path: string): Promise<void> {
  const token = await loginToken('coming-soon', 'user@example.com');
  const log = recordRequests(page);
  const start = `${site}${path}?access_token=${encodeURIComponent(token)}&keep=1`;
  log.markStart(start);
  await page.goto(start);
  await expect.poll(() => new URL(page.url()).searchParams.has('access_token')).toBe(false);
  await page.waitForLoadState('networkidle');
  await page.reload();
  await page.waitForLoadState('networkidle');
  const requests = (await log.settled()).filter((request) => !request.isStart);
  expect(requests.length).toBeGreaterThan(3);
  expect(placesCarrying(requests, token, ['url', 'referer'])).toEqual([]);
  expect(requests.some((request) => request.authorization === `Bearer ${token}`)).toBe(true);
}

/**
 * The login round trip through the platform's login page: back on `site` signed in, the token gone
 * from the address and from history (going back leads to the login page), never in a Referer.
 */
export async function expectLoginRoundTrip(page: Page, site: string): Promise<void> {
  await page.goto(`${site}/?app_id=members-only`);
  await page.waitForURL((url) => url.origin === PLATFORM_URL && url.pathname === '/login');
  expect(new URL(page.url()).searchParams.get('from_url')).toBe(`${site}/?app_id=members-only`);
  const log = recordRequests(page);
  log.markStart((url) => url.startsWith(`${site}/`) && new URL(url).searchParams.has('access_token'));
  await page.getByLabel('E-mail').fill('user@example.com');
  await page.getByLabel('Password').fill(SEEDED_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.origin === site);
  await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  await expect.poll(() => page.url()).toBe(`${site}/?app_id=members-only`);
  await page.waitForLoadState('networkidle');
  const requests = await log.settled();
  const returned = requests.findIndex((request) => request.isStart);
  const token = new URL(requests[returned]?.url ?? site).searchParams.get('access_token') ?? '';
  expect(token).not.toBe('');
  expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBe(token);
  // The page asks the platform once it has run; on a busy machine that can come after the network
  // first fell idle, so wait for it rather than take the log as it was then.
  const bearerAfterReturn = async () =>
    (await log.settled()).slice(returned + 1).some((request) => request.authorization === `Bearer ${token}`);
  await expect.poll(bearerAfterReturn, { timeout: 15_000 }).toBe(true);
  expect(placesCarrying((await log.settled()).slice(returned + 1), token, ['url', 'referer'])).toEqual([]);
  await page.goBack();
  await page.waitForURL((url) => url.origin !== site || !url.search.includes('access_token'));
  expect(page.url()).not.toContain(token);
}

/** An unregistered user of a registered-only app sees Access Restricted, not the copy. */
export async function expectAccessRestricted(page: Page, site: string): Promise<void> {
  await storeTokenBeforeLoad(page, await loginToken('invite-only', 'outsider@example.com'));
  await page.goto(`${site}/?app_id=invite-only`);
  await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
  await expect(page.getByRole('heading', { name: HEADING })).toHaveCount(0);
}

/**
 * The allowlisted editor frames the site at `site` (an editor preview build): the bridge announces
 * itself and the address to the editor's origin only, and the page is not guarded (its controls work).
 */
export async function expectEditorHandshake(page: Page, editor: EditorFixture, site: string): Promise<void> {
  await page.goto(editor.urlFor(`${site}/`));
  await waitForMessage(page, 'visual-edit-agent-ready');
  expect((await waitForMessage(page, 'app_changed_url')).url).toBe(`${site}/`);
  const frame = page.frames().find((candidate) => candidate.url().startsWith(site));
  expect(frame, 'the framed site').toBeDefined();
  await expect(frame?.locator('html') ?? page.locator('none')).not.toHaveAttribute('data-frame-guard');
  for (const message of await received(page)) expect(message).toMatchObject({ origin: site, fromFrame: true });
}
