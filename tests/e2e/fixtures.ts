import { test as base, expect } from '@playwright/test';

/** True for loopback addresses; every other host is somebody else's machine. */
export function isLoopbackUrl(raw: string): boolean {
  const url = new URL(raw);
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/**
 * Every page test also proves that nothing leaves this machine: no CDN, font, analytics or platform
 * host is contacted, only loopback. Console errors fail the test as well.
 */
export const test = base.extend<{ offsiteRequests: string[]; consoleErrors: string[] }>({
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
});

export { expect };
