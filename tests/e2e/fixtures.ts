import { test as base, expect } from '@playwright/test';

/** True for loopback addresses; every other host is somebody else's machine. */
export function isLoopbackUrl(raw: string): boolean {
  const url = new URL(raw);
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const CSP_MARK = 'CSP violation:';

interface Fixtures {
  offsiteRequests: string[];
  consoleErrors: string[];
  cspViolations: string[];
  /** Set by the one test that provokes a violation on purpose. */
  allowCspViolations: boolean;
}

/**
 * Every browser test also proves that nothing leaves this machine (no CDN, font, analytics or
 * platform host is contacted, only loopback) and that the page runs under the production Content
 * Security Policy without a single violation.
 */
export const test = base.extend<Fixtures>({
  allowCspViolations: [false, { option: true }],
  offsiteRequests: [
    async ({ context }, use) => {
      const offsite: string[] = [];
      context.on('request', (request) => {
        if (!isLoopbackUrl(request.url())) offsite.push(request.url());
      });
      await use(offsite);
      expect(offsite, 'requests that left 127.0.0.1').toEqual([]);
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
    },
    { auto: true },
  ],
  cspViolations: [
    async ({ context, consoleErrors, allowCspViolations }, use) => {
      await context.addInitScript((mark) => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`${mark} ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`);
        });
      }, CSP_MARK);
      const violations = () =>
        consoleErrors.filter((text) => text.startsWith(CSP_MARK) || /Content Security Policy/.test(text));
      const live: string[] = [];
      await use(live);
      live.push(...violations());
      if (!allowCspViolations) expect(live, 'Content Security Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
