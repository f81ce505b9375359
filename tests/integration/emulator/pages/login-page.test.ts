import type { RunningEmulator } from '@/emulator/core/types';
import { startTestEmulator } from '@/tests/support/emulator';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({ siteOrigins: ['https://preview.example.org'] });
});
afterAll(() => emulator.close());

const SITE = 'http://127.0.0.1:3000/ComingSoon?tab=1#top';

function loginPage(params: Record<string, string>): Promise<Response> {
  return fetch(`${emulator.url}/login?${new URLSearchParams(params).toString()}`);
}

function submit(fields: Record<string, string>): Promise<Response> {
  return fetch(`${emulator.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

describe('the login page', () => {
  it('renders an accessible form with labels, autocomplete hints and a strict CSP', async () => {
    const response = await loginPage({ from_url: SITE, app_id: 'members-only' });
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/form-action 'self' .*http:\/\/127\.0\.0\.1:3000/);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<label for="email">[^<]+<\/label>/);
    expect(html).toMatch(/<input id="email" name="email" type="email" autocomplete="username" required/);
    expect(html).toMatch(/<label for="password">[^<]+<\/label>/);
    expect(html).toContain('autocomplete="current-password"');
    expect(html).toContain('name="app_id" value="members-only"');
    expect(html).not.toContain('<script');
  });

  it('lets the visitor pick the app when the link does not name one', async () => {
    const html = await (await loginPage({ from_url: SITE })).text();
    expect(html).toMatch(/<label for="app_id">App<\/label><select id="app_id" name="app_id">/);
    expect(html).toContain('value="invite-only"');
  });

  it('redirects (303) to from_url with access_token added after a successful login', async () => {
    const response = await submit({
      email: 'user@example.com',
      password: 'emulator-password',
      from_url: SITE,
      app_id: 'members-only',
    });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin).toBe('http://127.0.0.1:3000');
    expect(location.pathname).toBe('/ComingSoon');
    expect(location.searchParams.get('tab')).toBe('1');
    expect(location.hash).toBe('#top');
    const token = location.searchParams.get('access_token') ?? '';
    const me = await fetch(`${emulator.url}/api/apps/members-only/entities/User/me`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
  });

  it('also redirects to origins passed with the siteOrigins option', async () => {
    const response = await submit({
      email: 'user@example.com',
      password: 'emulator-password',
      from_url: 'https://preview.example.org/',
      app_id: 'coming-soon',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^https:\/\/preview\.example\.org\/\?access_token=/);
  });

  it('re-renders with an announced, escaped error and the typed address after a wrong password', async () => {
    const email = '"><script>alert(1)</script>@example.com';
    const response = await submit({ email, password: 'wrong', from_url: SITE, app_id: 'coming-soon' });
    const html = await response.text();
    expect(response.status).toBe(401);
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com');

    const wrong = await submit({
      email: 'user@example.com',
      password: 'wrong-password',
      from_url: SITE,
      app_id: 'coming-soon',
    });
    expect(wrong.status).toBe(401);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('Invalid email or password');
    expect(wrongHtml).toContain('aria-invalid="true"');
    expect(wrongHtml).toContain('value="user@example.com"');
    expect(wrong.headers.get('location')).toBeNull();
  });

  it.each([
    ['a foreign origin', 'https://evil.example.com/steal'],
    ['a javascript: address', 'javascript:alert(1)'],
    ['a relative address', '/ComingSoon'],
    ['credentials in the address', 'http://user:pw@127.0.0.1:3000/'],
    ['a look-alike port', 'http://127.0.0.1:3001/'],
  ])('refuses %s with a 400 page and never redirects', async (_case, fromUrl) => {
    const page = await loginPage({ from_url: fromUrl, app_id: 'coming-soon' });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('role="alert"');
    const posted = await submit({
      email: 'user@example.com',
      password: 'emulator-password',
      from_url: fromUrl,
      app_id: 'coming-soon',
    });
    expect(posted.status).toBe(400);
    expect(posted.headers.get('location')).toBeNull();
  });

  it('refuses a missing from_url and an unknown app', async () => {
    expect((await loginPage({ app_id: 'coming-soon' })).status).toBe(400);
    expect((await loginPage({ from_url: SITE, app_id: 'nope' })).status).toBe(404);
    const posted = await submit({
      email: 'user@example.com',
      password: 'emulator-password',
      from_url: SITE,
      app_id: 'nope',
    });
    expect(posted.status).toBe(400);
  });

  it('serves a per-app base URL that fixes the app', async () => {
    const response = await fetch(`${emulator.url}/apps/invite-only/login?from_url=${encodeURIComponent(SITE)}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Log in to Invite Only');
    expect(html).toContain('<input type="hidden" name="app_id" value="invite-only">');
    expect((await fetch(`${emulator.url}/apps/ghost/login?from_url=${encodeURIComponent(SITE)}`)).status).toBe(404);
  });

  it('takes the app from the return address when the link names none (login links of @base44/sdk and ours)', async () => {
    const fromUrl = 'http://127.0.0.1:3000/?app_id=invite-only';
    const named = await fetch(`${emulator.url}/login?from_url=${encodeURIComponent(fromUrl)}`);
    expect(named.status).toBe(200);
    const html = await named.text();
    expect(html).toContain('Log in to Invite Only');
    expect(html).toContain('<input type="hidden" name="app_id" value="invite-only">');
    // An app the emulator does not know, in the return address, leaves the choice to the visitor.
    const unknown = await fetch(
      `${emulator.url}/login?from_url=${encodeURIComponent('http://127.0.0.1:3000/?app_id=ghost')}`,
    );
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).not.toContain('<input type="hidden" name="app_id"');
  });

  it('sends a logout back to an allowed from_url only', async () => {
    const back = await fetch(`${emulator.url}/api/apps/auth/logout?from_url=${encodeURIComponent(SITE)}`, {
      redirect: 'manual',
    });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(SITE);
    const away = await fetch(
      `${emulator.url}/api/apps/auth/logout?from_url=${encodeURIComponent('https://evil.example.com/')}`,
      { redirect: 'manual' },
    );
    expect(away.status).toBe(400);
    expect(away.headers.get('location')).toBeNull();
  });

  it('refuses a login form posted as something other than a form (415)', async () => {
    const response = await fetch(`${emulator.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'user@example.com' }),
    });
    expect(response.status).toBe(415);
  });
});
