import { expect, test } from '../fixtures';
import { loginToken, pageVisits, PLATFORM_URL, SEEDED_PASSWORD, useStoredToken } from '../support/platform';

const HEADING = 'Unsere neue Website ist fast startklar';

test.describe('auth states against the local platform', () => {
  test('public app: an anonymous visitor sees the page without spinner or redirect', async ({ page }) => {
    const platformCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(PLATFORM_URL))
        platformCalls.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect.poll(() => platformCalls).toContain('GET /api/apps/public/prod/public-settings/by-id/coming-soon');
    await page.waitForTimeout(500);
    await expect(page.getByRole('status')).toHaveCount(0);
    expect(page.url()).toBe('http://127.0.0.1:3000/');
    // No token stored: no user fetch at all.
    expect(platformCalls.filter((call) => call.includes('/entities/User/me'))).toEqual([]);
  });

  test('login-only app: redirected to the platform login, back authenticated, token stripped from the URL', async ({
    page,
  }) => {
    await page.goto('/?app_id=members-only');
    await page.waitForURL((url) => url.origin === PLATFORM_URL && url.pathname === '/login');
    const fromUrl = new URL(page.url()).searchParams.get('from_url');
    expect(fromUrl).toBe('http://127.0.0.1:3000/?app_id=members-only');

    await page.getByLabel('E-mail').fill('user@example.com');
    await page.getByLabel('Password').fill(SEEDED_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.waitForURL((url) => url.origin === 'http://127.0.0.1:3000');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect.poll(() => page.url()).toBe('http://127.0.0.1:3000/?app_id=members-only');
    const stored = await page.evaluate(() => [
      localStorage.getItem('base44_access_token'),
      localStorage.getItem('token'),
    ]);
    expect(stored[0]).toBeTruthy();
    expect(stored[1]).toBe(stored[0]);
    // Authenticated: the visit is logged for this user.
    await expect
      .poll(async () => (await pageVisits('members-only')).some((visit) => visit.page_name === 'ComingSoon'))
      .toBe(true);
  });

  test('registered-only app with an unregistered user: Access Restricted', async ({ page }) => {
    await useStoredToken(page, await loginToken('invite-only', 'outsider@example.com'));
    await page.goto('/?app_id=invite-only');
    await expect(page.getByRole('heading', { name: 'Access Restricted' })).toBeVisible();
    await expect(
      page.getByText(
        'You are not registered to use this application. Please contact the app administrator to request access.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: HEADING })).toHaveCount(0);
  });

  test('registered-only app with a registered member: the page', async ({ page }) => {
    await useStoredToken(page, await loginToken('invite-only', 'member@example.com'));
    await page.goto('/?app_id=invite-only');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await page.waitForTimeout(300);
    await expect(page.getByRole('heading', { name: 'Access Restricted' })).toHaveCount(0);
  });

  for (const [who, email, sees] of [
    ['an admin', 'admin@example.com', true],
    ['a normal user', 'user@example.com', false],
  ] as const) {
    test(`${who} on a missing page ${sees ? 'sees' : 'does not see'} the admin note`, async ({ page }) => {
      await useStoredToken(page, await loginToken('coming-soon', email));
      const meAnswered = page.waitForResponse((response) => response.url().endsWith('/entities/User/me'));
      await page.goto('/Impressum');
      expect((await meAnswered).status()).toBe(200);
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
      if (sees) {
        await expect(page.getByRole('note')).toContainText("AI hasn't implemented this page yet");
      } else {
        await page.waitForTimeout(300);
        await expect(page.getByRole('note')).toHaveCount(0);
      }
    });
  }

  test('platform down: the page still shows', async ({ page }) => {
    await page.route(`${PLATFORM_URL}/**`, (route) => route.abort('connectionrefused'));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await page.waitForTimeout(800);
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
  });

  test('a dead token: one login redirect, the token is dropped, no loop', async ({ page }) => {
    const loginVisits: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().startsWith(`${PLATFORM_URL}/login`)) loginVisits.push(frame.url());
    });
    await useStoredToken(page, 'dead.token.value');
    await page.goto('/?app_id=members-only');
    await page.waitForURL((url) => url.origin === PLATFORM_URL);
    expect(loginVisits).toHaveLength(1);

    // The login "round trip" fails: the platform sends the visitor back with a token it then refuses.
    await page.goto('/?app_id=members-only&access_token=also.dead');
    await expect(page.getByRole('heading', { name: 'Sign-in required' })).toBeVisible();
    await page.waitForTimeout(500);
    expect(loginVisits).toHaveLength(1);
    expect(new URL(page.url()).searchParams.has('access_token')).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('base44_access_token'))).toBeNull();

    // The visitor may choose to try again.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === PLATFORM_URL);
    expect(loginVisits).toHaveLength(2);
  });

  test('a 401 on the user fetch of a public app: redirected once, then the page without the dead token', async ({
    page,
  }) => {
    // Stored once: the back navigation may load a new document (no back/forward cache), and the
    // dropped token must stay dropped.
    await useStoredToken(page, 'dead.token.value');
    await page.goto('/');
    await page.waitForURL((url) => url.origin === PLATFORM_URL);
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await page.waitForTimeout(500);
    expect(new URL(page.url()).origin).toBe('http://127.0.0.1:3000');
  });

  test('page visits are logged once per visit, not per render', async ({ page }) => {
    const token = await loginToken('coming-soon', 'user@example.com');
    const before = (await pageVisits('coming-soon')).length;
    await useStoredToken(page, token);
    await page.goto('/');
    await expect.poll(async () => (await pageVisits('coming-soon')).length).toBe(before + 1);
    // Re-renders (a resize, a toast) do not log again.
    await page.setViewportSize({ width: 500, height: 700 });
    await page.waitForTimeout(500);
    expect((await pageVisits('coming-soon')).length).toBe(before + 1);
    // A missing page is not a registered page; going home is a new visit.
    await page.goto('/Kontakt');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL('/');
    await expect.poll(async () => (await pageVisits('coming-soon')).length).toBe(before + 2);
    const newest = (await pageVisits('coming-soon'))[0];
    expect(newest?.page_name).toBe('ComingSoon');
  });
});
