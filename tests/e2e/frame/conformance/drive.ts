/**
 * The one editor script both agents are driven with: every message type the reference agent
 * handles, with real mouse and keyboard input where the editor's user would use them. Each step
 * ends with a barrier (a measure-page-height round trip: both agents answer it in order), so the
 * messages of a step are exactly those posted before its barrier answer.
 */
import { expect, type Frame, type Page } from '@playwright/test';

import { messageTotal, pageState, postedSince, type PageState, type PostedMessage } from './observe';

export interface StepResult {
  name: string;
  messages: PostedMessage[];
  state: PageState;
  /** What the user saw of the agent's overlays during the step, when the step looks (compared as is). */
  seen?: unknown;
}

interface Context {
  page: Page;
  frame: Frame;
  send(message: unknown): Promise<void>;
  heading: string;
  lastParagraph: string;
  editorOrigin: string;
}

interface Step {
  name: string;
  /** Acts; may return what the user saw of the overlays meanwhile (see {@link visibleOverlays}). */
  act(context: Context): Promise<unknown>;
  /** Message types to wait for before the barrier (those posted after a delay). */
  waitFor?: string[];
  /**
   * Runs after the step was observed: undoes what an intended difference (docs/EDITOR-DEVIATIONS.md)
   * left on the reference's page, so later steps compare like with like.
   */
  undo?(context: Context): Promise<void>;
}

/** The heading swaps one size utility for another (the one the 900 px wide frame uses): sm:text-5xl out, sm:text-3xl in. */
export const SWAPPED_FROM = 'sm:text-5xl';
export const SWAPPED_TO = 'sm:text-3xl';

/** The centre of the first match of `selector` in the frame, in the editor page's coordinates (for the real mouse). */
async function centre(frame: Frame, selector: string): Promise<{ x: number; y: number }> {
  const box = await frame.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} has no box`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function clickOn(context: Context, selector: string): Promise<void> {
  const { x, y } = await centre(context.frame, selector);
  await context.page.mouse.move(x, y);
  await context.page.mouse.click(x, y);
}

/** The selection outline's label, which opens the layer menu, and the menu's first entry, in either agent. */
const LAYER_LABEL =
  '[data-layer-dropdown]:not([data-vite-plugin-element="true"][style*="overflow"]), [data-visual-edit-layer="label"]';
const LAYER_MENU_ENTRY = '[data-layer-dropdown] > div:first-child, [data-visual-edit-layer="menu"] > div:first-child';

/** The outlines' border colours of both agents: hover #95a5fc, selection #2563EB. */
const HOVER_BORDER = 'rgb(149, 165, 252)';
const SELECTED_BORDER = 'rgb(37, 99, 235)';

export interface VisibleOverlays {
  /** The label text of every visible hover outline (empty text: an outline without a label). */
  hover: string[];
  /** The label text of every visible selection outline. */
  selected: string[];
  /** The entries of an open layer menu, in order. */
  menu: string[];
}

/**
 * What the user sees of either agent's overlays, read by what they look like rather than by each
 * agent's markup: boxes with the outline colours, their label's text (both chevrons are SVG icons,
 * so a label reads as its tag name alone), and the layer menu's entries.
 */
async function visibleOverlays(frame: Frame): Promise<VisibleOverlays> {
  return frame.evaluate(
    ({ hoverBorder, selectedBorder }) => {
      const visible = (element: Element) => {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 0 && box.height > 0;
      };
      const labelOf = (box: Element) => (box.firstElementChild?.textContent ?? '').trim();
      const outlines = (colour: string) =>
        Array.from(document.body.querySelectorAll('div'))
          .filter((element) => {
            const style = getComputedStyle(element);
            return (
              !element.hasAttribute('data-source-location') &&
              style.borderTopColor === colour &&
              style.borderTopWidth === '2px' &&
              style.borderTopStyle === 'solid' &&
              visible(element)
            );
          })
          .map(labelOf);
      const menu = document.querySelector(
        '[data-layer-dropdown][data-vite-plugin-element="true"][style*="overflow"], [data-visual-edit-layer="menu"]',
      );
      return {
        hover: outlines(hoverBorder),
        selected: outlines(selectedBorder),
        menu: menu && visible(menu) ? Array.from(menu.children, (entry) => (entry.textContent ?? '').trim()) : [],
      };
    },
    { hoverBorder: HOVER_BORDER, selectedBorder: SELECTED_BORDER },
  );
}

/** Moves the real mouse to `point` in small steps, as a hand does (each step is a mousemove). */
async function glide(page: Page, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(to.x, to.y, { steps: 5 });
}

/** The centre of the `index`th paragraph beside the heading (0: above it, 1: below it; both in view). */
async function centreOfParagraph(frame: Frame, index: number): Promise<{ x: number; y: number }> {
  const box = await frame.locator('main section > p').nth(index).boundingBox();
  if (!box) throw new Error(`paragraph ${index} has no box`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Time for the agents to act on a pointer move (the reference waits for an animation frame). */
const SETTLE_MS = 150;

const POPUP = `
  const backdrop = document.createElement('div');
  backdrop.id = 'conformance-backdrop';
  backdrop.setAttribute('style', 'position:fixed;inset:0;z-index:50;background:rgba(0,0,0,0.5)');
  const panel = document.createElement('div');
  panel.id = 'conformance-panel';
  panel.setAttribute('style', 'position:fixed;top:25%;left:25%;width:50%;height:50%;z-index:60;background:#fff');
  document.body.append(backdrop, panel);
`;

export const STEPS: Step[] = [
  { name: 'load', act: async () => undefined },
  {
    name: 'toggle-visual-edit-mode on, inline editing on',
    act: async ({ send }) =>
      send({ type: 'toggle-visual-edit-mode', data: { enabled: true, specs: { newInlineEditEnabled: true } } }),
  },
  { name: 'click selects the heading', act: (context) => clickOn(context, 'h1'), waitFor: ['element-selected'] },
  {
    name: 'hovering another element outlines it with its tag label',
    act: async ({ page, frame }) => {
      await glide(page, await centreOfParagraph(frame, 1));
      await page.waitForTimeout(SETTLE_MS);
      return visibleOverlays(frame);
    },
  },
  {
    name: 'after popover-drag-state ends, moving within an element outlines it again',
    act: async ({ page, frame, send }) => {
      await send({ type: 'popover-drag-state', data: { isDragging: true } });
      await page.waitForTimeout(SETTLE_MS);
      // The pointer crosses into the first paragraph while the editor drags its popover ...
      const target = await centreOfParagraph(frame, 0);
      await glide(page, target);
      await page.waitForTimeout(SETTLE_MS);
      const whileDragging = await visibleOverlays(frame);
      await send({ type: 'popover-drag-state', data: { isDragging: false } });
      await page.waitForTimeout(SETTLE_MS);
      // ... and then moves a little within it.
      await glide(page, { x: target.x + 6, y: target.y + 1 });
      await page.waitForTimeout(SETTLE_MS);
      return { whileDragging, after: await visibleOverlays(frame) };
    },
  },
  {
    name: 'request-element-position',
    act: ({ send }) => send({ type: 'request-element-position' }),
    waitFor: ['element-position-update'],
  },
  {
    name: 'scroll reports the position',
    act: async ({ frame }) => {
      await frame.evaluate(() => window.scrollTo(0, 40));
    },
    waitFor: ['element-position-update'],
  },
  {
    name: 'update-classes swaps a utility',
    act: async ({ send, frame, heading }) => {
      const classes = (await frame.locator('h1').getAttribute('class')) ?? '';
      expect(classes.split(' ')).toContain(SWAPPED_FROM);
      await send({
        type: 'update-classes',
        data: { visualSelectorId: heading, classes: classes.replace(SWAPPED_FROM, SWAPPED_TO) },
      });
      await expect
        .poll(() => frame.locator('h1').evaluate((element) => getComputedStyle(element).fontSize))
        .toBe('30px');
    },
  },
  {
    name: 'update-content writes text with a line break',
    act: async ({ send, frame, lastParagraph }) => {
      await send({
        type: 'update-content',
        data: { visualSelectorId: lastParagraph, content: 'Bis bald <b>!</b>\nIhr Team' },
      });
      await expect(frame.locator('p').last()).toContainText('Ihr Team');
    },
  },
  {
    name: 'update-attribute with an attribute outside the allowlist',
    act: ({ send, heading }) =>
      send({ type: 'update-attribute', data: { visualSelectorId: heading, attribute: 'onclick', value: 'alert(1)' } }),
  },
  {
    name: 'update-attribute src on a heading',
    act: ({ send, heading }) =>
      send({ type: 'update-attribute', data: { visualSelectorId: heading, attribute: 'src', value: '/icon.svg' } }),
    undo: async ({ frame }) => {
      await frame.evaluate(() => document.querySelector('h1')?.removeAttribute('src'));
    },
  },
  {
    name: 'update-theme-variables with a plain CSS property',
    act: ({ send }) =>
      send({ type: 'update-theme-variables', data: { variables: { 'text-decoration-line': 'underline' } } }),
    undo: async ({ frame }) => {
      await frame.evaluate(() => document.documentElement.style.removeProperty('text-decoration-line'));
    },
  },
  {
    name: 'update-theme-variables sets custom properties',
    act: ({ send }) =>
      send({
        type: 'update-theme-variables',
        data: { variables: { '--color-stone-900': 'rgb(1, 2, 3)', '--editor-test': '4px' } },
      }),
  },
  {
    name: 'inject-font-import',
    act: async ({ send, frame, editorOrigin }) => {
      await send({ type: 'inject-font-import', data: { fontUrl: `${editorOrigin}/fonts/preview.css` } });
      await expect
        .poll(() =>
          frame.evaluate(() =>
            getComputedStyle(document.documentElement).getPropertyValue('--editor-font-preview').trim(),
          ),
        )
        .toBe('loaded');
    },
  },
  {
    name: 'inject-font-face',
    act: ({ send }) =>
      send({
        type: 'inject-font-face',
        data: { id: 'preview', css: "@font-face { font-family: 'Editor Face'; src: local('DejaVu Sans'); }" },
      }),
  },
  {
    name: 'inject-font-face that is not one @font-face rule',
    act: ({ send }) => send({ type: 'inject-font-face', data: { id: 'bad', css: 'h1 { color: red }' } }),
  },
  {
    name: 'second click starts inline editing',
    act: (context) => clickOn(context, 'h1'),
    waitFor: ['content-editing-started'],
  },
  {
    name: 'typing writes back through inline-edit',
    act: async ({ page }) => {
      await page.keyboard.press('End');
      await page.keyboard.type(' – heute');
    },
    waitFor: ['inline-edit'],
  },
  {
    name: 'clicking elsewhere ends inline editing',
    act: (context) => clickOn(context, 'main p:first-of-type'),
    waitFor: ['content-editing-ended'],
  },
  {
    name: 'toggle-inline-edit-mode on',
    act: ({ send, heading }) =>
      send({ type: 'toggle-inline-edit-mode', data: { dataSourceLocation: heading, inlineEditingMode: true } }),
    waitFor: ['content-editing-started'],
  },
  {
    name: 'toggle-inline-edit-mode off',
    act: ({ send, heading }) =>
      send({ type: 'toggle-inline-edit-mode', data: { dataSourceLocation: heading, inlineEditingMode: false } }),
    waitFor: ['content-editing-ended'],
  },
  {
    name: 'a click on the selection label lists the layers; Escape closes the list',
    act: async (context) => {
      await clickOn(context, LAYER_LABEL);
      await context.page.waitForTimeout(SETTLE_MS);
      // The reference also outlines <body> while the pointer rests on its own label (it resolves its
      // overlay to the nearest annotated ancestor); only the list and the selection are compared.
      const { menu, selected } = await visibleOverlays(context.frame);
      await context.page.keyboard.press('Escape');
      return { menu, selected };
    },
    waitFor: ['unselect-element', 'element-selected'],
  },
  {
    name: 'the selection label opens the layer menu; arrow up and Enter pick the layer above',
    act: async (context) => {
      await clickOn(context, LAYER_LABEL);
      await context.page.keyboard.press('ArrowUp');
      await context.page.keyboard.press('Enter');
    },
    waitFor: ['unselect-element', 'element-selected'],
  },
  {
    name: 'the layer menu again, and Escape restores the selection',
    act: async (context) => {
      await clickOn(context, LAYER_LABEL);
      await context.page.keyboard.press('Escape');
    },
    waitFor: ['unselect-element', 'element-selected'],
  },
  {
    name: 'a layer chosen with the mouse',
    act: async (context) => {
      await clickOn(context, LAYER_LABEL);
      await clickOn(context, LAYER_MENU_ENTRY);
    },
    waitFor: ['unselect-element', 'element-selected'],
  },
  { name: 'unselect-element', act: ({ send }) => send({ type: 'unselect-element' }) },
  {
    name: 'request-element-position without a selection',
    act: ({ send }) => send({ type: 'request-element-position' }),
  },
  {
    name: 'popover-drag-state, then a click still selects',
    act: async (context) => {
      await context.send({ type: 'popover-drag-state', data: { isDragging: true } });
      await clickOn(context, 'h1');
      await context.send({ type: 'popover-drag-state', data: { isDragging: false } });
    },
    waitFor: ['element-selected'],
  },
  {
    name: 'dropdown-state open: a click closes the dropdowns',
    act: async (context) => {
      await context.send({ type: 'dropdown-state', data: { isOpen: true } });
      await clickOn(context, 'h1');
      await context.send({ type: 'dropdown-state', data: { isOpen: false } });
    },
    waitFor: ['close-dropdowns'],
  },
  { name: 'freeze-vh-units', act: ({ send }) => send({ type: 'freeze-vh-units', referenceVhBase: 500 }) },
  {
    name: 'measure-page-height after freezing',
    act: ({ send }) => send({ type: 'measure-page-height', settleMs: 10 }),
    waitFor: ['page-height-measured'],
  },
  {
    name: 'suppress-auto-popups hides a modal',
    act: async ({ send, frame }) => {
      await frame.evaluate(POPUP);
      await send({ type: 'suppress-auto-popups' });
    },
  },
  {
    name: 'toggle-canvas-wheel-zoom-bridge: wheel pans, ctrl+wheel zooms',
    act: async (context) => {
      await context.send({ type: 'toggle-canvas-wheel-zoom-bridge' });
      const { x, y } = await centre(context.frame, 'h1');
      await context.page.mouse.move(x, y);
      await context.page.mouse.wheel(0, 30);
      await context.page.keyboard.down('Control');
      await context.page.mouse.wheel(0, -20);
      await context.page.keyboard.up('Control');
    },
    waitFor: ['canvas-wheel-pan', 'canvas-wheel-zoom'],
  },
  {
    name: 'toggle-visual-edit-mode off: clicks and the wheel are the page’s again',
    act: async (context) => {
      await context.send({ type: 'toggle-visual-edit-mode', data: { enabled: false } });
      await clickOn(context, 'h1');
    },
  },
  {
    name: 'refresh-page reloads, and the agent announces itself again',
    act: ({ send }) => send({ type: 'refresh-page' }),
    waitFor: ['visual-edit-agent-ready'],
  },
];

/** Runs every step against the framed site on `page`; returns what each step produced. */
export async function drive(page: Page, frame: Frame, editorOrigin: string): Promise<StepResult[]> {
  const siteOrigin = new URL(frame.url()).origin;
  const context: Context = {
    page,
    frame,
    editorOrigin,
    send: async (message) => {
      await page.evaluate(
        ([data, origin]) => {
          const target = document.querySelector('iframe') as HTMLIFrameElement;
          target.contentWindow?.postMessage(data, origin as string);
        },
        [message, siteOrigin] as const,
      );
    },
    heading: (await frame.locator('h1').getAttribute('data-source-location')) ?? '',
    lastParagraph: (await frame.locator('main p').last().getAttribute('data-source-location')) ?? '',
  };
  const results: StepResult[] = [];
  for (const [index, step] of STEPS.entries()) {
    // The first step collects what the agent said while the page loaded.
    const since = index === 0 ? 0 : await messageTotal(page);
    const seen = await step.act(context);
    for (const type of step.waitFor ?? []) {
      await expect
        .poll(async () => (await postedSince(page, since)).some((message) => message.type === type), {
          message: `${step.name}: ${type}`,
        })
        .toBe(true);
    }
    // Barrier: both agents answer measure-page-height after everything sent before it.
    const before = (await postedSince(page, since)).length;
    await context.send({ type: 'measure-page-height', settleMs: 0 });
    await expect
      .poll(async () =>
        (await postedSince(page, since)).slice(before).some((message) => message.type === 'page-height-measured'),
      )
      .toBe(true);
    const all = await postedSince(page, since);
    const barrier = all.findIndex((message, index) => index >= before && message.type === 'page-height-measured');
    results.push({
      name: step.name,
      messages: all.slice(0, barrier),
      state: await pageState(frame),
      ...(seen === undefined ? {} : { seen }),
    });
    await step.undo?.(context);
  }
  return results;
}
