/**
 * The editor frame in every engine: the stand-in editor (tests/e2e/fixtures/editor) on its own origin
 * frames the editor preview build, which is where engines differ most (cross-site frame storage,
 * postMessage origins, pointer and focus in edit mode).
 */
import { EDITOR_PORT, PREVIEW_ORIGIN } from '../../support/editor-preview';
import { startEditorFixture, type EditorFixture } from '../e2e/fixtures/editor/server';
import { loginToken } from '../e2e/support/platform';
import type { EngineSession } from './driver/session';
import { expect, test, until } from './fixtures';
import { gateResolved } from './page-state';

interface Received {
  origin: string;
  fromFrame: boolean;
  data: { type?: string; [field: string]: unknown };
}

const SITE_FRAME = { frame: 'iframe#site' };

function received(session: EngineSession): Promise<Received[]> {
  return session.evaluate(() => (window as unknown as { __messages: Received[] }).__messages.slice(), []);
}

/** Posts messages into the framed site from the editor page, as the editor does. */
async function send(session: EngineSession, messages: unknown): Promise<void> {
  await session.evaluate(
    (list: unknown) => {
      (window as unknown as { __send: (items: unknown) => number }).__send(list);
    },
    [messages],
  );
}

async function waitForMessage(session: EngineSession, type: string, since = 0): Promise<Received['data']> {
  const all = await until(
    () => received(session),
    (list) => list.slice(since).some((message) => message.fromFrame && message.data?.type === type),
    `"${type}" from the framed site`,
  );
  return all.slice(since).find((message) => message.fromFrame && message.data?.type === type)?.data ?? {};
}

function inFrame<Result>(session: EngineSession, fn: (selector: string) => Result, selector: string): Promise<Result> {
  return session.evaluate(fn, [selector], SITE_FRAME);
}

let editor: EditorFixture;
test.beforeAll(async () => {
  editor = await startEditorFixture(EDITOR_PORT);
});
test.afterAll(async () => {
  await editor.close();
});

test('framed cross-origin: handshake, hover and select with the pointer, class swap, inline edit, token kept in the frame', async ({
  session,
}) => {
  const token = await loginToken('coming-soon', 'user@example.com');
  await session.goto(editor.urlFor(`${PREVIEW_ORIGIN}/?access_token=${encodeURIComponent(token)}`));

  // Handshake: the agent announces itself and the address (without the token) to the editor's origin.
  await waitForMessage(session, 'visual-edit-agent-ready');
  const changed = await waitForMessage(session, 'app_changed_url');
  expect(changed.url).toBe(`${PREVIEW_ORIGIN}/`);

  await send(session, {
    type: 'toggle-visual-edit-mode',
    data: { enabled: true, specs: { newInlineEditEnabled: true } },
  });
  await until(
    () =>
      inFrame(
        session,
        (css) => document.querySelector(css)?.getAttribute('src') ?? null,
        'script[data-visual-edit-tailwind]',
      ),
    (src) => src === '/vendor/tailwindcss-browser.js',
    "edit mode's Tailwind runtime",
  );

  // Hover with the real pointer: the light overlay.
  await gateResolved(session, SITE_FRAME);
  await session.hover('h1', SITE_FRAME);
  await until(
    () => inFrame(session, (css) => document.querySelectorAll(css).length, '[data-visual-edit-overlay="hover"]'),
    (count) => count === 1,
    'the hover overlay',
  );

  // Click: the editor learns about the heading.
  let since = (await received(session)).length;
  await session.click('h1', SITE_FRAME);
  const selected = await waitForMessage(session, 'element-selected', since);
  expect(selected).toMatchObject({ type: 'element-selected', tagName: 'H1', isTextElement: true });
  const location = String(selected.visualSelectorId);
  expect(location).toMatch(/^components\/pages\/ComingSoon\.tsx:\d+:\d+$/);

  // A class swap: sm:text-5xl out, sm:text-3xl in (the 900 px frame is past the sm breakpoint).
  const classes = String(selected.classes);
  expect(classes.split(' ')).toContain('sm:text-5xl');
  await send(session, {
    type: 'update-classes',
    data: { visualSelectorId: location, classes: classes.replace('sm:text-5xl', 'sm:text-3xl') },
  });
  await until(
    () => inFrame(session, (css) => getComputedStyle(document.querySelector(css) as Element).fontSize, 'h1'),
    (size) => size === '30px',
    'the swapped font size',
  );

  // Inline edit: a second click starts editing, typing writes back through inline-edit.
  since = (await received(session)).length;
  await session.click('h1', SITE_FRAME);
  await waitForMessage(session, 'content-editing-started', since);
  await session.press('End');
  await session.type(' heute');
  const edit = await waitForMessage(session, 'inline-edit', since);
  expect(String(edit.newContent)).toMatch(/ heute$/);
  expect(await inFrame(session, (css) => document.querySelector(css)?.textContent ?? '', 'h1')).toMatch(/ heute$/);

  // The token stays with the framed site: in its own storage, out of its address, out of every
  // message and out of the editor's storage.
  expect(await session.evaluate(() => localStorage.getItem('base44_access_token'), [], SITE_FRAME)).toBe(token);
  expect(await session.evaluate(() => window.location.href, [], SITE_FRAME)).toBe(`${PREVIEW_ORIGIN}/`);
  expect(await session.evaluate(() => JSON.stringify({ ...localStorage }), [])).not.toContain(token);
  const messages = await received(session);
  expect(JSON.stringify(messages)).not.toContain(token);
  for (const message of messages) expect(message).toMatchObject({ origin: PREVIEW_ORIGIN, fromFrame: true });
});
