import { expect, test } from '../fixtures';

// Which headers each host sends (and check:host's verdict on them): tests/hosts (the host matrix).
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
