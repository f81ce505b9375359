/**
 * Edit mode under the strict CSP the site will ship: scripts from our own origin only (Next's inline
 * bootstrap scripts allowed by hash, as a static host would), no `unsafe-eval`, no inline scripts.
 * Styles may be inline: Tailwind's browser build writes its CSS into a <style> element.
 */
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';

import { EDITOR_ORIGIN, EDITOR_PORT, PREVIEW_ORIGIN } from '../../../support/editor-preview';
import { expect, test } from '../fixtures';
import { startEditorFixture, type EditorFixture } from '../fixtures/editor/server';
import { send, siteFrame, waitForMessage } from './helpers';

/** 'sha256-...' for every inline script of a page. */
function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    hashes.add(
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
    );
  }
  return [...hashes];
}

function strictPolicy(html: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self' http://127.0.0.1:* ws://127.0.0.1:*",
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${EDITOR_ORIGIN}`,
  ].join('; ');
}

/** Serves the preview's HTML with the strict policy; records violations in every frame. */
async function enforceStrictCsp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) => {
      violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
    });
  });
  await page.route(`${PREVIEW_ORIGIN}/**`, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const html = await response.text();
    await route.fulfill({
      response,
      body: html,
      headers: { ...response.headers(), 'content-security-policy': strictPolicy(html) },
    });
  });
}

let editor: EditorFixture;
test.beforeAll(async () => {
  editor = await startEditorFixture(EDITOR_PORT);
});
test.afterAll(async () => {
  await editor.close();
});

test('edit mode restyles with classes the build lacks, with no eval and no inline script', async ({ page }) => {
  await enforceStrictCsp(page);
  await page.goto(editor.urlFor(`${PREVIEW_ORIGIN}/`));
  await waitForMessage(page, 'visual-edit-agent-ready');
  const frame = await siteFrame(page);
  const heading = frame.locator('h1');
  const id = (await heading.getAttribute('data-source-location')) ?? '';

  await send(page, [
    { type: 'toggle-visual-edit-mode', data: { enabled: true } },
    { type: 'update-classes', data: { visualSelectorId: id, classes: 'underline decoration-[rgb(90,12,34)]' } },
  ]);
  await expect
    .poll(() => heading.evaluate((element) => getComputedStyle(element).textDecorationColor))
    .toBe('rgb(90, 12, 34)');
  await heading.click();
  await waitForMessage(page, 'element-selected');

  // The rest of the editor's features need nothing more: inline editing, theme variables,
  // viewport-height freezing and page height.
  await send(page, [
    { type: 'toggle-visual-edit-mode', data: { enabled: true, specs: { newInlineEditEnabled: true } } },
    { type: 'update-theme-variables', data: { variables: { '--color-stone-900': 'rgb(3, 2, 1)' } } },
    { type: 'freeze-vh-units', referenceVhBase: 480 },
    { type: 'measure-page-height', settleMs: 0 },
  ]);
  await waitForMessage(page, 'page-height-measured');
  await heading.click();
  await heading.click();
  await waitForMessage(page, 'content-editing-started');
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  expect((await waitForMessage(page, 'inline-edit')).newContent).toMatch(/!$/);
  expect(await frame.locator('main').evaluate((element) => getComputedStyle(element).minHeight)).toBe('480px');

  const violations = await frame.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  expect(violations).toEqual([]);
});
