/**
 * What the bridge refuses: a parent page that is not the editor, and garbage from the editor itself.
 */
import type { Page } from '@playwright/test';

import { EDITOR_PORT, PREVIEW_ORIGIN } from '../../../support/editor-preview';
import { expect, test } from '../fixtures';
import { randomMessage, seededRandom } from '../fixtures/editor/fuzz-messages';
import { startEditorFixture, type EditorFixture } from '../fixtures/editor/server';
import { containsBridgeCode, messageCount, received, recordScripts, send, siteFrame, waitForMessage } from './helpers';

/** One valid message of every type the editor may send, aimed at `id`. */
function everyMessage(id: string): unknown[] {
  return [
    { type: 'toggle-visual-edit-mode', data: { enabled: true } },
    { type: 'dropdown-state', data: { isOpen: true } },
    { type: 'popover-drag-state', data: { isDragging: false } },
    { type: 'update-classes', data: { visualSelectorId: id, classes: 'hidden bg-[rgb(200,0,0)]' } },
    { type: 'update-content', data: { visualSelectorId: id, content: 'Übernommen!' } },
    { type: 'update-attribute', data: { visualSelectorId: id, attribute: 'src', value: '/icon.svg' } },
    { type: 'update-theme-variables', data: { variables: { '--color-stone-900': 'rgb(200, 0, 0)' } } },
    { type: 'inject-font-face', data: { id: 'x', css: "@font-face { font-family: 'X'; src: local('Arial'); }" } },
    { type: 'toggle-inline-edit-mode', data: { dataSourceLocation: id, inlineEditingMode: true } },
    { type: 'freeze-vh-units', referenceVhBase: 500 },
    { type: 'measure-page-height', settleMs: 0 },
    { type: 'suppress-auto-popups' },
    { type: 'toggle-canvas-wheel-zoom-bridge' },
    { type: 'request-element-position' },
    { type: 'unselect-element' },
    { type: 'refresh-page' },
  ];
}

let editor: EditorFixture;
test.beforeAll(async () => {
  editor = await startEditorFixture(EDITOR_PORT);
});
test.afterAll(async () => {
  await editor.close();
});

/**
 * Serves the preview without its `frame-ancestors` directive, as a host that lost or never had the
 * header would: the bridge must hold on its own.
 */
async function dropFrameAncestors(page: Page): Promise<void> {
  await page.route(`${PREVIEW_ORIGIN}/**`, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const headers = { ...response.headers() };
    const policy = headers['content-security-policy'];
    if (policy) {
      headers['content-security-policy'] = policy
        .split(';')
        .filter((directive) => !directive.trim().startsWith('frame-ancestors'))
        .join(';');
    }
    await route.fulfill({ response, headers });
  });
}

test.describe('with the host headers', () => {
  test.use({ allowCspViolations: true });

  test('a parent on an origin that is not allowed cannot even show the site', async ({ page, consoleErrors }) => {
    const hostile = await startEditorFixture(0);
    try {
      await page.goto(hostile.urlFor(`${PREVIEW_ORIGIN}/`));
      await expect.poll(() => consoleErrors.some((text) => text.includes('frame-ancestors'))).toBe(true);
      expect(page.frames().some((frame) => frame.url().startsWith(PREVIEW_ORIGIN))).toBe(false);
      expect(await received(page)).toEqual([]);
    } finally {
      await hostile.close();
    }
  });
});

test('without frame-ancestors, a parent that is not allowed can neither drive the site nor hear from it', async ({
  page,
}) => {
  const hostile = await startEditorFixture(0);
  try {
    await dropFrameAncestors(page);
    const scripts = recordScripts(page);
    await page.goto(hostile.urlFor(`${PREVIEW_ORIGIN}/`));
    const frame = await siteFrame(page);
    const heading = frame.locator('h1');
    await expect(heading).toBeVisible();
    // The bridge was loaded (the site is framed) and then decided to stay silent.
    await expect.poll(() => scripts.some((script) => containsBridgeCode(script.body))).toBe(true);
    await page.waitForLoadState('networkidle');

    const id = (await heading.getAttribute('data-source-location')) ?? '';
    expect(id).not.toBe('');
    const before = { classes: await heading.getAttribute('class'), text: await heading.textContent() };
    await frame.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    await send(page, everyMessage(id));
    // The framing guard (lib/frame/frame-guard.ts) made the page inert: no element takes the pointer,
    // so the click goes out at the heading's place without Playwright's actionability wait.
    await expect(frame.locator('html')).toHaveAttribute('data-frame-guard', 'hostile');
    await heading.click({ force: true });
    await send(page, everyMessage(id));
    await page.waitForTimeout(500);

    expect(await received(page)).toEqual([]);
    expect(await heading.getAttribute('class')).toBe(before.classes);
    expect(await heading.textContent()).toBe(before.text);
    await expect(frame.locator('[data-visual-edit-overlay]')).toHaveCount(0);
    await expect(frame.locator('[data-visual-edit-tailwind]')).toHaveCount(0);
    expect(await frame.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  } finally {
    await hostile.close();
  }
});

test('1,000 random and malformed messages from the editor break nothing', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(editor.urlFor(`${PREVIEW_ORIGIN}/`));
  await waitForMessage(page, 'visual-edit-agent-ready');
  const frame = await siteFrame(page);
  const heading = frame.locator('h1');
  const ids = await frame
    .locator('[data-source-location]')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-source-location') ?? ''));

  // Scripts of the page itself (the Tailwind runtime joins when the fuzz turns edit mode on).
  const pageScripts = frame.locator('script:not([data-visual-edit-tailwind])');
  const scriptsBefore = await pageScripts.count();

  const random = seededRandom(0xed170);
  const messages = Array.from({ length: 1000 }, () => randomMessage(random, { ids, allowRefresh: false }));
  for (let start = 0; start < messages.length; start += 100) await send(page, messages.slice(start, start + 100));
  // Let every message be handled, and any delayed work (re-syncs, Tailwind builds) run.
  await page.waitForTimeout(500);

  // No uncaught error in the site: the bridge would have forwarded it.
  expect((await received(page)).filter((message) => message.data?.type === 'app_error')).toEqual([]);
  // Text stayed text: no element or script was injected, no dialog opened.
  await expect(frame.locator('img, [data-fuzz-injected]')).toHaveCount(0);
  expect(await pageScripts.count()).toBe(scriptsBefore);
  expect(dialogs).toEqual([]);

  // The page still works: put the editor state back (the fuzz may have emptied the heading with a
  // valid update-content), rewrite the heading and select it.
  const headingId = (await heading.getAttribute('data-source-location')) ?? '';
  await send(page, [
    { type: 'dropdown-state', data: { isOpen: false } },
    { type: 'popover-drag-state', data: { isDragging: false } },
    { type: 'toggle-visual-edit-mode', data: { enabled: true } },
    { type: 'update-content', data: { visualSelectorId: headingId, content: 'Noch da' } },
  ]);
  await expect(heading).toHaveText('Noch da');
  const since = await messageCount(page);
  await heading.click();
  const selected = await waitForMessage(page, 'element-selected', since);
  expect(selected).toMatchObject({ tagName: 'H1', visualSelectorId: headingId, content: 'Noch da' });
});
