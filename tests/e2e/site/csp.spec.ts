/**
 * The production Content-Security-Policy as the browser receives it: exactly one policy per
 * response (no second policy joined by a comma from an overlapping `_headers` rule), no
 * `'unsafe-inline'` in any directive (the inlined stylesheet is allowed by its hash), and the page
 * still styled and running without a single violation (the fixtures fail the test on any). The
 * editor preview keeps inline styles, which Tailwind's runtime needs in edit mode.
 */
import type { Response } from '@playwright/test';

import { PREVIEW_ORIGIN } from '../../../support/editor-preview';
import { expect, test } from '../fixtures';

const PATHS = ['/', '/index.html', '/ComingSoon', '/ComingSoon/', '/ComingSoon.html', '/404.html', '/Kontakt', '//x/y'];

function policiesOf(response: Response | null): Promise<string[]> {
  if (!response) throw new Error('no response');
  return response.headersArray().then((headers) =>
    headers
      .filter(({ name }) => name.toLowerCase() === 'content-security-policy')
      // Several policies may also arrive in one header, separated by commas.
      .flatMap(({ value }) => value.split(',')),
  );
}

function directive(policy: string, name: string): string {
  return (
    policy
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${name} `)) ?? ''
  );
}

test.describe('production CSP', () => {
  for (const path of PATHS) {
    test(`${path}: one policy, no 'unsafe-inline', styled under it`, async ({ page }) => {
      const policies = await policiesOf(await page.goto(`http://127.0.0.1:3000${path}`));
      expect(policies).toHaveLength(1);
      const [policy = ''] = policies;
      expect(policy).not.toContain("'unsafe-inline'");
      // The stylesheet is a file of our own: no inline style needs allowing.
      expect(directive(policy, 'style-src')).toBe("style-src 'self'");
      expect(directive(policy, 'script-src')).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      // The stylesheet applied: Tailwind's preflight removes the default body margin.
      expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
    });
  }
});

test.describe('production CSP against injected styles', () => {
  // The violation is the point of this test; it is checked here instead of by the fixture.
  test.use({ allowCspViolations: true });

  test('an injected <style> is blocked and reported', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const applied = await page.evaluate(async () => {
      const blocked = new Promise<boolean>((resolve) => {
        document.addEventListener(
          'securitypolicyviolation',
          (event) => resolve(event.effectiveDirective.startsWith('style-src')),
          { once: true },
        );
        setTimeout(() => resolve(false), 2000);
      });
      const style = document.createElement('style');
      style.textContent = 'body { margin: 17px !important; }';
      document.head.append(style);
      return { margin: getComputedStyle(document.body).margin, reported: await blocked };
    });
    expect(applied).toEqual({ margin: '0px', reported: true });
  });
});

test('the editor preview keeps inline styles for edit mode', async ({ request }) => {
  const response = await request.get(`${PREVIEW_ORIGIN}/`);
  const policies = response.headersArray().filter(({ name }) => name.toLowerCase() === 'content-security-policy');
  expect(policies).toHaveLength(1);
  // Inline styles allowed (and so no hash, which would switch 'unsafe-inline' off); the editor's font
  // origins may follow.
  const styles = directive(policies[0]?.value ?? '', 'style-src');
  expect(styles).toMatch(/^style-src 'self' 'unsafe-inline'( https?:\/\/\S+)*$/);
  expect(policies[0]?.value).not.toMatch(/script-src[^;]*'unsafe-inline'/);
});
