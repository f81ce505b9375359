import { expect, test } from '../fixtures';

const HEADING = 'Unsere neue Website ist fast startklar';
const COPY = /freuen uns darauf, Ihnen schon bald unseren neuen digitalen\s+Auftritt zu präsentieren/;

test.describe('registered pages', () => {
  for (const path of ['/', '/ComingSoon', '/ComingSoon/']) {
    test(`${path} answers 200 with the German coming-soon page`, async ({ page, consoleErrors }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
      await expect(page.getByText(COPY)).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(page).toHaveTitle('Bald verfügbar – Unsere neue Website');
      expect(consoleErrors).toEqual([]);
    });
  }

  test('carries a description, Open Graph tags and an icon', async ({ page, request }) => {
    await page.goto('/');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /fast startklar/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Bald verfügbar/);
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'de_DE');
    const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect(icon).toBeTruthy();
    const iconResponse = await request.get(icon ?? '');
    expect(iconResponse.status()).toBe(200);
    expect(iconResponse.headers()['content-type']).toContain('image/svg+xml');
    const robots = await request.get('/robots.txt');
    expect(await robots.text()).toContain('User-agent: *');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the copy is in the HTML itself', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
    await expect(page.getByText(COPY)).toBeVisible();
  });
});

test.describe('missing pages', () => {
  test('an unknown path answers 404 with the Page Not Found screen naming the page', async ({ page }) => {
    const response = await page.goto('/Preise');
    expect(response?.status()).toBe(404);
    const screen = page.getByRole('main');
    await expect(screen).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await expect(page.getByText(/The page “Preise” could not be found in this application\./)).toBeVisible();
    await expect(page.getByText('Admin Note')).toHaveCount(0);
    // The 404 status keeps missing paths out of search indexes; the page itself stays crawlable.
    await expect(page.locator('meta[name="robots"][content*="noindex"]')).toHaveCount(0);
  });

  test('Go Home leads back to the main page', async ({ page }) => {
    await page.goto('/does/not/exist');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADING })).toBeVisible();
  });

  test('the static host serves hashed assets immutable and HTML revalidated', async ({ request, page }) => {
    const html = await request.get('/');
    expect(html.headers()['cache-control']).toBe('no-cache');
    await page.goto('/');
    const script = await page.locator('script[src^="/_next/static/"]').first().getAttribute('src');
    const asset = await request.get(script ?? '');
    expect(asset.status()).toBe(200);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
