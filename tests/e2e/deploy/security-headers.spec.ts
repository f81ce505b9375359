import { expect, test } from '../fixtures';

const PAGES = ['/', '/ComingSoon', '/ComingSoon/', '/missing-page'];

test.describe('production headers on every page', () => {
  for (const path of PAGES) {
    test(`${path} is served with a strict CSP and runs without errors`, async ({ page, consoleErrors }) => {
      const response = await page.goto(path);
      const headers = response?.headers() ?? {};
      const csp = headers['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self' 'sha256-");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin');
      expect(headers['permissions-policy']).toContain('camera=()');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      // A missing page's own document answers 404, which the browser reports; nothing else may fail.
      const unexpected = consoleErrors.filter((text) => !(path === '/missing-page' && /status of 404/.test(text)));
      expect(unexpected).toEqual([]);
    });
  }
});

test.describe('an injected inline script', () => {
  test.use({ allowCspViolations: true });

  test('is blocked by the policy and reported as a violation', async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect
      .poll(() => consoleErrors.some((text) => /^CSP violation: script-src-elem blocked inline/.test(text)))
      .toBe(true);
  });
});
