import { expect, test } from '@playwright/test';

// The emulator port tests/playwright/dev.config.ts gives `npm run dev`.
const EMULATOR = 'http://127.0.0.1:3201';

test('npm run dev serves / talking to the local platform', async ({ page }) => {
  const settings = page.waitForResponse((response) =>
    response.url().startsWith(`${EMULATOR}/api/apps/public/prod/public-settings/by-id/`),
  );
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Unsere neue Website ist fast startklar' })).toBeVisible();
  // The shell's first platform call is answered by the emulator npm run dev started.
  expect((await settings).status()).toBe(200);
});

test('npm run dev answers an unknown path with the 404 screen', async ({ page }) => {
  const response = await page.goto('/Foo');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText(/The page “Foo” could not be found in this application\./)).toBeVisible();
});
