/**
 * The editor embedding end to end: a stand-in editor on a second local origin frames the editor
 * preview build and drives it through the whole protocol (docs/SPEC.md section 7).
 *
 * Needs the preview build served on PREVIEW_ORIGIN (tests/e2e/fixtures/editor/serve-preview.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from '@playwright/test';

import { EDITOR_PORT, PREVIEW_BUILD, PREVIEW_ORIGIN } from '../../../support/editor-preview';
import { expect, test } from '../fixtures';
import { PLAIN_ELEMENT_FIELDS } from '../fixtures/editor/element-fields';
import { startEditorFixture, type EditorFixture } from '../fixtures/editor/server';
import { containsBridgeCode, messageCount, received, recordScripts, send, siteFrame, waitForMessage } from './helpers';

const ROOT = path.resolve(__dirname, '../../..');
const PAGE_FILE = 'components/pages/ComingSoon.tsx';
/** A class the build cannot contain: an arbitrary value no source file uses. */
const NEW_CLASS = 'bg-[rgb(12,34,56)]';

/** `file:line:col` of the heading's `<h1`, read from the real source file. */
function headingLocation(): string {
  const lines = readFileSync(path.join(ROOT, PAGE_FILE), 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes('<h1'));
  expect(index, `${PAGE_FILE} renders an <h1>`).toBeGreaterThanOrEqual(0);
  return `${PAGE_FILE}:${index + 1}:${(lines[index] ?? '').indexOf('<h1') + 1}`;
}

/** The CSS the preview build ships. */
function builtCss(): string {
  const folder = path.join(ROOT, PREVIEW_BUILD.outDir, '_next', 'static');
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.css'));
  expect(files.length).toBeGreaterThan(0);
  return files.map((file) => readFileSync(path.join(folder, file), 'utf8')).join('\n');
}

/** Computed styles that show whether anything but the edited class changed the page's look. */
function looks(frame: Frame): Promise<string[]> {
  return frame.locator('h1, p, main').evaluateAll((elements) =>
    elements.map((element) => {
      const style = getComputedStyle(element);
      const { top, height } = element.getBoundingClientRect();
      return [
        element.tagName,
        style.fontFamily,
        style.fontSize,
        style.lineHeight,
        style.letterSpacing,
        style.fontWeight,
        style.color,
        style.marginTop,
        style.paddingTop,
        `${top}`,
        `${height}`,
      ].join(' | ');
    }),
  );
}

let editor: EditorFixture;
test.beforeAll(async () => {
  editor = await startEditorFixture(EDITOR_PORT);
});
test.afterAll(async () => {
  await editor.close();
});

test('the editor selects, restyles and rewrites the German heading, and hears about URLs and errors', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  await page.goto(editor.urlFor(`${PREVIEW_ORIGIN}/`));

  // Handshake: the agent announces itself and the address, to the editor's origin only.
  await waitForMessage(page, 'visual-edit-agent-ready');
  const loaded = await waitForMessage(page, 'app_changed_url');
  expect(loaded.url).toBe(`${PREVIEW_ORIGIN}/`);
  expect(scripts.some((script) => containsBridgeCode(script.body))).toBe(true);

  const frame = await siteFrame(page);
  const heading = frame.locator('h1');
  const looksBefore = await looks(frame);

  // Edit mode: Tailwind's browser build comes from our own origin.
  await send(page, { type: 'toggle-visual-edit-mode', data: { enabled: true } });
  await expect(frame.locator('script[data-visual-edit-tailwind]')).toHaveAttribute(
    'src',
    '/vendor/tailwindcss-browser.js',
  );

  // Hover: a light overlay above everything, out of the pointer's way.
  await heading.hover();
  const hover = frame.locator('[data-visual-edit-overlay="hover"]');
  await expect(hover).toHaveCount(1);
  expect(
    await hover.evaluate((element) => {
      const style = getComputedStyle(element);
      return [style.zIndex, style.borderTopWidth, style.borderTopColor, style.pointerEvents];
    }),
  ).toEqual(['9999', '2px', 'rgb(149, 165, 252)', 'none']);

  // Click: captured, and the editor learns everything about the heading.
  let since = await messageCount(page);
  await heading.click();
  const selected = await waitForMessage(page, 'element-selected', since);
  const location = headingLocation();
  const box = await heading.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
  expect(selected).toEqual({
    type: 'element-selected',
    tagName: 'H1',
    classes: await heading.getAttribute('class'),
    visualSelectorId: location,
    content: await heading.evaluate((element) => (element as HTMLElement).innerText),
    dataSourceLocation: location,
    isDynamicContent: false,
    ...PLAIN_ELEMENT_FIELDS,
    isTextElement: true,
    position: {
      top: box.top,
      left: box.left,
      right: box.right,
      bottom: box.bottom,
      width: box.width,
      height: box.height,
      centerX: box.left + box.width / 2,
      centerY: box.top + box.height / 2,
    },
  });
  expect(selected.content).toContain('Website');
  const outline = frame.locator('[data-visual-edit-overlay="selected"]');
  await expect(outline).toHaveCount(1);
  expect(await outline.evaluate((element) => getComputedStyle(element).borderTop)).toBe('2px solid rgb(37, 99, 235)');
  await expect(outline).toContainText('h1');

  // update-classes with a class the build lacks: the heading visibly changes. The editor sends the
  // whole class list (it merges), and that is exactly what the heading gets.
  expect(builtCss()).not.toContain('12,34,56');
  const classesBefore = (await heading.getAttribute('class')) ?? '';
  await send(page, {
    type: 'update-classes',
    data: { visualSelectorId: location, classes: `${classesBefore} ${NEW_CLASS}` },
  });
  await expect(heading).toHaveAttribute('class', `${classesBefore} ${NEW_CLASS}`);
  await expect
    .poll(() => heading.evaluate((element) => getComputedStyle(element).backgroundColor))
    .toBe('rgb(12, 34, 56)');
  // The runtime adds the missing utilities and changes nothing else: same theme, same layout.
  expect(await looks(frame)).toEqual(looksBefore);

  // Swapping a utility (one out, another in) changes the computed style: sm:text-5xl applies in
  // the 900 px wide frame, sm:text-3xl replaces it.
  const swapped = `${classesBefore} ${NEW_CLASS}`.replace('sm:text-5xl', 'sm:text-3xl');
  await send(page, { type: 'update-classes', data: { visualSelectorId: location, classes: swapped } });
  await expect(heading).toHaveAttribute('class', swapped);
  await expect.poll(() => heading.evaluate((element) => getComputedStyle(element).fontSize)).toBe('30px');

  // update-content: text only.
  await send(page, {
    type: 'update-content',
    data: { visualSelectorId: location, content: 'Bald geht es los <b>!</b>' },
  });
  await expect(heading).toHaveText('Bald geht es los <b>!</b>');
  await expect(heading.locator('b')).toHaveCount(0);

  // Scrolling the page reports the selection's new position.
  since = await messageCount(page);
  const topBefore = await heading.evaluate((element) => element.getBoundingClientRect().top);
  await frame.evaluate(() => window.scrollTo(0, 120));
  const scrolled = await waitForMessage(page, 'element-position-update', since);
  expect(await frame.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const topAfter = await heading.evaluate((element) => element.getBoundingClientRect().top);
  expect(topAfter).toBeLessThan(topBefore);
  expect((scrolled.position as DOMRect).top).toBeCloseTo(topAfter, 0);
  expect(typeof scrolled.isInViewport).toBe('boolean');

  // And so does asking for it.
  since = await messageCount(page);
  await send(page, { type: 'request-element-position' });
  const requested = await waitForMessage(page, 'element-position-update', since);
  expect(requested).toMatchObject({ visualSelectorId: location, isInViewport: true });

  // Unselect removes the outline.
  await send(page, { type: 'unselect-element' });
  await expect(outline).toHaveCount(0);

  // Navigation: every route change is reported.
  since = await messageCount(page);
  await frame.evaluate(() => window.history.pushState(null, '', '/ComingSoon'));
  expect((await waitForMessage(page, 'app_changed_url', since)).url).toBe(`${PREVIEW_ORIGIN}/ComingSoon`);

  // Errors: forwarded, except HTTP 402 (our error class and raw HTTP errors).
  since = await messageCount(page);
  await frame.evaluate(() => {
    setTimeout(() => {
      throw Object.assign(new Error('Payment required'), { name: 'Base44Error', status: 402 });
    });
    void Promise.reject({ response: { status: 402 } });
    setTimeout(() => {
      throw new Error('e2e: boom');
    }, 100);
  });
  const forwarded = await waitForMessage(page, 'app_error', since);
  expect(forwarded.error).toMatchObject({ title: 'e2e: boom', details: expect.stringContaining('Error: e2e: boom') });
  const errors = (await received(page)).filter((message) => message.data?.type === 'app_error');
  expect(errors).toHaveLength(1);

  // Everything came from the framed site and arrived at the editor's origin.
  for (const message of await received(page))
    expect(message).toMatchObject({ origin: PREVIEW_ORIGIN, fromFrame: true });
});
