import { expect, test } from '../fixtures';

const HEADING = 'Unsere neue Website ist fast startklar';
const COPY = /freuen uns darauf, Ihnen schon bald unseren neuen digitalen\s+Auftritt zu präsentieren/;

// The pages themselves (copy, 404 screen, Go Home, caching) on every host: tests/hosts (the host matrix).
test.describe('registered pages', () => {
  test('carries a description, Open Graph tags and an icon', async ({ page, request }) => {
    await page.goto('/');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /fast startklar/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Bald verfügbar/);
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'de_DE');
    const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect(icon).toBeTruthy();
    const iconResponse = await request.get(icon ?? '');
    expect(iconResponse.status()).toBe(200);
    expect(iconResponse.headers()['content-type']).toBe('image/png');
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
