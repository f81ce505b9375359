/**
 * The auth flows in every engine: the login round trip through the platform's own login page, the
 * token stripped from the address bar and from history and never sent in a Referer, Access
 * Restricted, and the admin note on a missing page.
 */
import { loginToken, PLATFORM_URL, SEEDED_PASSWORD } from '../e2e/support/platform';
import type { EngineSession } from './driver/session';
import { WEBKIT_NO_BACK } from './driver/webkit-session';
import { expect, expectedStatus, test, until } from './fixtures';
import { gateResolved, mainState, SITE } from './page-state';

const HEADING = 'Unsere neue Website ist fast startklar';

/** Stores a token in the site's storage, as a returning visitor has it, then opens `path`. */
async function visitWithStoredToken(session: EngineSession, token: string, path: string): Promise<void> {
  // The public main page, to write into the site's storage from; then the page under test reads it.
  await session.goto(`${SITE}/`);
  // Written only once this page's own auth check is over: a check that starts after the write (the
  // lazily loaded shell runs after the load event, late on a busy machine) sends the token to this
  // page's app, which refuses a token of another app: it clears the token and starts a login
  // redirect, and the page under test then finds no token and a redirect that did not come back
  // ("Sign-in required" instead of Access Restricted, CI run 18).
  await gateResolved(session);
  await session.evaluate(
    (value: string) => {
      localStorage.setItem('base44_access_token', value);
      localStorage.setItem('token', value);
    },
    [token],
  );
  await session.goto(`${SITE}${path}`);
}

test.describe('the login round trip', () => {
  // The platform refuses the anonymous visitor (401/403) before sending them to its login page, and
  // Firefox asks for that page's favicon, which the emulator's own policy (default-src 'none') refuses:
  // the stand-in platform's page, not the site.
  test.use({ allowedProblems: new RegExp(`${expectedStatus(401, 403).source}|${PLATFORM_URL}/favicon\\.ico`) });

  test('login redirect and return: token out of the address bar, history and every Referer', async ({ session }) => {
    await session.goto(`${SITE}/?app_id=members-only`);
    const login = new URL(
      await until(
        () => session.url(),
        (url) => url.startsWith(`${PLATFORM_URL}/login`),
        'the login page',
      ),
    );
    expect(login.searchParams.get('from_url')).toBe(`${SITE}/?app_id=members-only`);

    await session.click('#email');
    await session.type('user@example.com');
    await session.click('#password');
    await session.type(SEEDED_PASSWORD);
    const before = session.requests()?.length ?? 0;
    await session.press('Enter');

    await until(
      () => session.url(),
      (url) => url === `${SITE}/?app_id=members-only`,
      'the return without the token',
    );
    const state = await until(
      () => mainState(session),
      (value) => value.hydrated,
      'hydration',
    );
    expect(state.h1).toBe(HEADING);
    const token = await session.evaluate(() => localStorage.getItem('base44_access_token'), []);
    expect(token).toBeTruthy();
    expect(await session.evaluate(() => localStorage.getItem('token'), [])).toBe(token);

    // History: the entry of the return holds no token; going back leads to the login page, not to it.
    expect(await session.evaluate(() => window.location.href, [])).not.toContain(token as string);
    if (session.engine === 'webkit') {
      test.info().annotations.push({ type: 'limitation', description: `history not walked: ${WEBKIT_NO_BACK}` });
    } else {
      await session.back();
      const previous = await until(
        () => session.url(),
        (url) => !url.startsWith(SITE),
        'the previous entry',
      );
      expect(previous).not.toContain(token as string);
    }

    const requests = session.requests();
    if (requests === null) {
      // WebKitWebDriver has no network events (driver/webkit-session.ts): the request log cannot be
      // read there; the next test proves WebKit applies the Referrer-Policy that keeps the token out.
      test.info().annotations.push({ type: 'limitation', description: 'no network events: request log not checked' });
      return;
    }
    const afterReturn = requests.slice(before).filter((request) => !request.url.startsWith(`${PLATFORM_URL}/login`));
    const returned = afterReturn.findIndex((request) => request.url.includes('access_token='));
    expect(returned, 'the platform sends the visitor back with the token').toBeGreaterThanOrEqual(0);
    const later = afterReturn.slice(returned + 1);
    expect(later.length).toBeGreaterThan(3);
    const leaks = later.filter(
      (request) => request.url.includes(token as string) || (request.referer ?? '').includes(token as string),
    );
    expect(leaks.map((request) => request.url)).toEqual([]);
    // Referers carry the origin only (Referrer-Policy: strict-origin).
    for (const request of later) if (request.referer) expect(request.referer).toBe(`${SITE}/`);
    expect(later.some((request) => request.authorization === `Bearer ${token}`)).toBe(true);
  });
});

test('a navigation the page starts sends the origin only as Referer (Referrer-Policy: strict-origin)', async ({
  session,
}) => {
  // A secret the shell does not strip stands for what a URL may hold when a request leaves the page.
  const secret = `probe-${Date.now()}`;
  await session.goto(`${SITE}/ComingSoon?probe=${secret}`);
  await until(
    () => mainState(session),
    (value) => value.hydrated,
    'hydration',
  );
  await session.evaluate(() => {
    // A document navigation started by the page itself (not Next's router), so the engine sets a Referer.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.href = '/';
  }, []);
  await until(
    () => session.url(),
    (url) => url === `${SITE}/`,
    'the next page',
  );
  // Same origin: without the policy the engine would send the whole address, secret included.
  expect(await session.evaluate(() => document.referrer, [])).toBe(`${SITE}/`);
});

test.describe('Access Restricted', () => {
  test.use({ allowedProblems: expectedStatus(403) });

  test('a registered-only app shows Access Restricted to an unregistered user', async ({ session }) => {
    await visitWithStoredToken(
      session,
      await loginToken('invite-only', 'outsider@example.com'),
      '/?app_id=invite-only',
    );
    const state = await until(
      () => mainState(session),
      (value) => value.h1 === 'Access Restricted',
      'Access Restricted',
    );
    expect(state.text).toContain(
      'You are not registered to use this application. Please contact the app administrator to request access.',
    );
    expect(state.text).not.toContain(HEADING);
  });
});

test.describe('the admin note', () => {
  test.use({ allowedProblems: expectedStatus(404) });

  test('an admin sees it on a missing page', async ({ session }) => {
    await visitWithStoredToken(session, await loginToken('coming-soon', 'admin@example.com'), '/Impressum');
    const state = await until(
      () => mainState(session),
      (value) => value.text.includes("AI hasn't implemented this page yet"),
      'the admin note',
    );
    expect(state.h1).toBe('Page Not Found');
  });
});
