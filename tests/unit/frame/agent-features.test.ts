import type { IncomingMessage, OutgoingMessage } from '@/lib/frame/messages';
import { watchMountState } from '@/lib/frame/mount-signal';
import { createVisualEditAgent, type VisualEditAgent } from '@/lib/frame/visual-edit/agent';
import { INLINE_EDIT_DEBOUNCE_MS } from '@/lib/frame/visual-edit/inline-edit';
import { REFERENCE_VH_VARIABLE, rewriteViewportHeights } from '@/lib/frame/visual-edit/page-height';
import { alphaOf } from '@/lib/frame/visual-edit/popup-suppressor';
import { isAllowedFontFace } from '@/lib/frame/visual-edit/theme';

const HEADING = 'components/pages/ComingSoon.tsx:17:9';
const FONTS = 'https://fonts.example';

let agent: VisualEditAgent;
let posted: OutgoingMessage[];
let heading: HTMLElement;
const send = (message: IncomingMessage) => agent.handle(message);
const types = () => posted.map((message) => message.type);
const click = (target: Element) => target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));

beforeEach(() => {
  jest.useFakeTimers();
  document.head.replaceChildren();
  document.documentElement.removeAttribute('style');
  document.body.innerHTML = `<main data-source-location="m:1:1"><h1 class="text-4xl" data-source-location="${HEADING}">Alt</h1><p data-source-location="p:1:1">Text</p></main>`;
  heading = document.querySelector('h1') as HTMLElement;
  posted = [];
  agent = createVisualEditAgent({
    win: window,
    post: (message) => posted.push(message),
    loadTailwind: () => Promise.resolve(),
    fontOrigins: [FONTS],
  });
});

afterEach(() => {
  agent.stop();
  jest.useRealTimers();
});

describe('inline text editing', () => {
  const startEditing = () => {
    send({ type: 'toggle-visual-edit-mode', data: { enabled: true, inlineEditEnabled: true } });
    click(heading);
    click(heading);
  };

  it('starts on a second click on the selected text, and writes back through inline-edit after the debounce', () => {
    startEditing();
    expect(heading.getAttribute('data-selected')).toBe('true');
    expect(heading.getAttribute('contenteditable')).toBe('true');
    expect(types()).toEqual(['element-selected', 'content-editing-started']);
    heading.textContent = 'Neu';
    heading.dispatchEvent(new Event('input'));
    jest.advanceTimersByTime(INLINE_EDIT_DEBOUNCE_MS - 1);
    expect(types()).not.toContain('inline-edit');
    jest.advanceTimersByTime(1);
    expect(posted.at(-1)).toMatchObject({
      type: 'inline-edit',
      originalContent: 'Alt',
      newContent: 'Neu',
      elementInfo: { tagName: 'H1', visualSelectorId: HEADING, content: 'Neu', classes: 'text-4xl' },
    });
  });

  it('lets clicks inside the edited text through and ends editing on a click elsewhere', () => {
    startEditing();
    const inside = new MouseEvent('click', { bubbles: true, cancelable: true });
    heading.dispatchEvent(inside);
    expect(inside.defaultPrevented).toBe(false);
    click(document.querySelector('p') as Element);
    expect(types().at(-1)).toBe('content-editing-ended');
    expect(heading.getAttribute('contenteditable')).toBe('false');
    expect(agent.selectedId).toBe(HEADING);
  });

  it('does nothing on a second click while inline editing is off', () => {
    send({ type: 'toggle-visual-edit-mode', data: { enabled: true, inlineEditEnabled: null } });
    click(heading);
    click(heading);
    expect(types()).toEqual(['element-selected', 'element-selected']);
    expect(heading.hasAttribute('contenteditable')).toBe(false);
  });

  it('follows toggle-inline-edit-mode for the selected element', () => {
    startEditing();
    send({ type: 'toggle-inline-edit-mode', data: { dataSourceLocation: HEADING, inlineEditingMode: false } });
    send({ type: 'toggle-inline-edit-mode', data: { dataSourceLocation: HEADING, inlineEditingMode: true } });
    expect(types().slice(-2)).toEqual(['content-editing-ended', 'content-editing-started']);
  });
});

describe('theme and fonts', () => {
  it('sets custom properties on the root, or on the .dark element in dark mode', () => {
    send({ type: 'update-theme-variables', data: { variables: [['--primary', '#123456']], mode: 'light' } });
    expect(document.documentElement.style.getPropertyValue('--primary')).toBe('#123456');
    document.querySelector('main')?.classList.add('dark');
    send({ type: 'update-theme-variables', data: { variables: [['--primary', 'red']], mode: 'dark' } });
    expect((document.querySelector('main') as HTMLElement).style.getPropertyValue('--primary')).toBe('red');
  });

  it('imports font CSS only from an allowed origin, as text of one style element', () => {
    send({ type: 'inject-font-import', data: { fontUrl: 'https://evil.example/x.css' } });
    expect(document.getElementById('__theme-font-preview')).toBeNull();
    send({ type: 'inject-font-import', data: { fontUrl: `${FONTS}/css?family=Inter');}*{color:red` } });
    send({ type: 'inject-font-import', data: { fontUrl: `${FONTS}/css?family=Inter` } });
    const style = document.getElementById('__theme-font-preview');
    expect(style?.textContent).toBe(`@import url("${FONTS}/css?family=Inter");`);
    expect(document.querySelectorAll('style')).toHaveLength(1);
  });

  it('injects one @font-face per id, only with allowed URLs and no escapes', () => {
    const face = `@font-face { font-family: 'Inter'; src: url('${FONTS}/inter.woff2'); }`;
    send({ type: 'inject-font-face', data: { id: 'inter', css: face } });
    send({ type: 'inject-font-face', data: { id: 'inter', css: face.replace('Inter', 'Other') } });
    expect(document.getElementById('visual-edit-font-face-inter')?.textContent).toBe(face);
    expect(isAllowedFontFace(`@font-face { src: url(https://evil.example/a.woff2); }`, [FONTS])).toBe(false);
    expect(isAllowedFontFace(`@font-face { src: url(${FONTS}/a.woff2); } h1 { color: red }`, [FONTS])).toBe(false);
    expect(isAllowedFontFace(`@font-face { font-family: "\\41"; }`, [FONTS])).toBe(false);
    expect(isAllowedFontFace(`h1 { color: red }`, [FONTS])).toBe(false);
  });
});

describe('canvas features', () => {
  it('rewrites viewport-height lengths to the frozen reference height and sets it', () => {
    expect(rewriteViewportHeights('min-height: 100dvh; height: 50vh; top: 12.5svh; width: 10vw')).toBe(
      `min-height: calc(var(${REFERENCE_VH_VARIABLE}) * 1); height: calc(var(${REFERENCE_VH_VARIABLE}) * 0.5); top: calc(var(${REFERENCE_VH_VARIABLE}) * 0.125); width: 10vw`,
    );
    send({ type: 'freeze-vh-units', referenceVhBase: 640 });
    expect(document.documentElement.style.getPropertyValue(REFERENCE_VH_VARIABLE)).toBe('640px');
  });

  it('answers measure-page-height once the height is stable', () => {
    send({ type: 'measure-page-height', settleMs: 100 });
    jest.advanceTimersByTime(99);
    expect(types()).toEqual([]);
    jest.advanceTimersByTime(200);
    expect(posted).toEqual([{ type: 'page-height-measured', height: expect.any(Number) }]);
  });

  it('reads the alpha of legacy and modern colours', () => {
    expect(alphaOf('rgba(0, 0, 0, 0.5)')).toBe(0.5);
    expect(alphaOf('rgb(0, 0, 0)')).toBe(1);
    expect(alphaOf('oklch(0.2 0.1 20 / 40%)')).toBe(0.4);
    expect(alphaOf('transparent')).toBeNull();
  });

  it('turns the wheel into canvas pan and zoom messages until edit mode ends', () => {
    send({ type: 'toggle-visual-edit-mode', data: { enabled: true, inlineEditEnabled: null } });
    send({ type: 'toggle-canvas-wheel-zoom-bridge' });
    const wheel = new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY: 30 });
    heading.dispatchEvent(wheel);
    heading.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY: -5, ctrlKey: true }));
    expect(wheel.defaultPrevented).toBe(true);
    expect(posted).toEqual([
      {
        type: 'canvas-wheel-pan',
        data: {
          deltaX: 0,
          deltaY: 30,
          deltaMode: 0,
          clientX: 0,
          clientY: 0,
          shiftKey: false,
          ctrlKey: false,
          metaKey: false,
        },
      },
      {
        type: 'canvas-wheel-zoom',
        data: { deltaY: -5, deltaMode: 0, clientX: 0, clientY: 0, ctrlKey: true, metaKey: false },
      },
    ]);
    send({ type: 'toggle-visual-edit-mode', data: { enabled: false, inlineEditEnabled: null } });
    heading.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY: 30 }));
    expect(posted).toHaveLength(2);
  });
});

describe('mount signals', () => {
  it('says mounted at start and then only when the state changes', async () => {
    const signals: OutgoingMessage[] = [];
    const stop = watchMountState(window, (message) => signals.push(message));
    document.querySelector('p')?.append('more');
    await Promise.resolve();
    document.body.replaceChildren();
    await Promise.resolve();
    stop();
    expect(signals).toEqual([{ type: 'sandbox:onMounted' }, { type: 'sandbox:onUnmounted' }]);
  });
});
