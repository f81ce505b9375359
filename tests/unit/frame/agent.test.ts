import type { IncomingMessage, OutgoingMessage } from '@/lib/frame/messages';
import { createVisualEditAgent, RESYNC_DELAY_MS, type VisualEditAgent } from '@/lib/frame/visual-edit/agent';
import { HOVER_BORDER, SELECTED_BORDER } from '@/lib/frame/visual-edit/overlays';

import { PLAIN_ELEMENT_FIELDS } from '../../e2e/fixtures/editor/element-fields';

const HEADING = 'components/pages/ComingSoon.tsx:17:9';
const ITEM = 'components/List.tsx:4:9';

/** Boxes per element; jsdom has no layout, so each test says where things are. */
const boxes = new Map<Element, { top: number; left: number; width: number; height: number }>();

function place(element: Element, top: number, left = 10, width = 200, height = 40): void {
  boxes.set(element, { top, left, width, height });
}

jest.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
  const box = boxes.get(this) ?? { top: 0, left: 0, width: 0, height: 0 };
  return {
    ...box,
    x: box.left,
    y: box.top,
    right: box.left + box.width,
    bottom: box.top + box.height,
    toJSON: () => box,
  } as DOMRect;
});

let agent: VisualEditAgent;
let posted: OutgoingMessage[];
let loadTailwind: jest.Mock<Promise<void>, [Document]>;
let reload: jest.Mock;
let appClicks: number;
let heading: HTMLElement;

const send = (message: IncomingMessage) => agent.handle(message);
const toggle = (enabled: boolean) =>
  send({ type: 'toggle-visual-edit-mode', data: { enabled, inlineEditEnabled: null } });
const enable = () => toggle(true);
const overlays = (kind: 'hover' | 'selected') =>
  Array.from(document.querySelectorAll<HTMLElement>(`[data-visual-edit-overlay="${kind}"]`));
const ofType = <T extends OutgoingMessage['type']>(type: T) =>
  posted.filter((message): message is Extract<OutgoingMessage, { type: T }> => message.type === type);

function click(target: Element): MouseEvent {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}
function hover(target: Element): void {
  target.dispatchEvent(new MouseEvent('mousemove', { bubbles: true }));
}

beforeEach(() => {
  jest.useFakeTimers();
  document.body.innerHTML = `
    <main data-source-location="components/pages/ComingSoon.tsx:7:5">
      <h1 class="mt-8 text-4xl" data-source-location="${HEADING}">Unsere neue <em>Website</em></h1>
      <p data-source-location="components/pages/ComingSoon.tsx:23:9">Wir legen gerade letzte Hand an</p>
      <ul><li data-source-location="${ITEM}">a</li><li data-source-location="${ITEM}">b</li></ul>
      <a href="#next" data-source-location="components/pages/ComingSoon.tsx:30:9">Link</a>
    </main>`;
  heading = document.querySelector('h1') as HTMLElement;
  place(heading, 100);
  document.querySelectorAll('li').forEach((item, index) => place(item, 300 + index * 30));
  posted = [];
  appClicks = 0;
  document.querySelector('main')?.addEventListener('click', () => (appClicks += 1));
  loadTailwind = jest.fn((_doc: Document) => Promise.resolve());
  reload = jest.fn();
  agent = createVisualEditAgent({ win: window, post: (message) => posted.push(message), loadTailwind, reload });
});

afterEach(() => {
  agent.stop();
  jest.useRealTimers();
  boxes.clear();
});

describe('edit mode', () => {
  it('turns on and off, loading the Tailwind runtime once, with a crosshair cursor while on', () => {
    enable();
    enable();
    expect(agent.enabled).toBe(true);
    expect(loadTailwind).toHaveBeenCalledTimes(1);
    expect(document.documentElement.style.cursor).toBe('crosshair');
    toggle(false);
    expect(agent.enabled).toBe(false);
    expect(document.documentElement.style.cursor).toBe('');
  });

  it('leaves the page alone while off: clicks reach the app, nothing is outlined or posted', () => {
    hover(heading);
    const event = click(heading);
    expect(event.defaultPrevented).toBe(false);
    expect(appClicks).toBe(1);
    expect(overlays('hover')).toEqual([]);
    expect(posted).toEqual([]);
  });

  it('applies class and text changes while off too, as the reference does', () => {
    send({ type: 'update-classes', data: { visualSelectorId: HEADING, classes: 'x' } });
    send({
      type: 'update-content',
      data: { visualSelectorId: 'components/pages/ComingSoon.tsx:23:9', content: 'neu', arrIndex: null },
    });
    expect(heading.getAttribute('class')).toBe('x');
    expect(document.querySelector('p')?.textContent).toBe('neu');
  });
});

describe('hover and selection', () => {
  beforeEach(enable);

  it('outlines the hovered element lightly, on top of the page and out of the way of the pointer', () => {
    hover(heading.querySelector('em') as Element);
    const [overlay, ...rest] = overlays('hover');
    expect(rest).toEqual([]);
    expect(HOVER_BORDER).toBe('2px solid #95a5fc');
    expect(overlay?.style.border).toBe('2px solid rgb(149, 165, 252)');
    expect(overlay?.style.zIndex).toBe('9999');
    expect(overlay?.style.pointerEvents).toBe('none');
    expect(overlay?.style.top).toBe('100px');
    expect(overlay?.style.width).toBe('200px');
  });

  it('labels the hover outline with the tag name, as the reference does', () => {
    hover(document.querySelector('p') as Element);
    expect(overlays('hover').map((overlay) => overlay.textContent)).toEqual(['p']);
  });

  it('after the editor stops dragging, a move within the element under the pointer outlines it', () => {
    const paragraph = document.querySelector('p') as Element;
    send({ type: 'popover-drag-state', data: { isDragging: true } });
    hover(paragraph);
    expect(overlays('hover')).toEqual([]);
    send({ type: 'popover-drag-state', data: { isDragging: false } });
    // No new mouseover: the pointer stays inside the paragraph and only moves.
    paragraph.dispatchEvent(new MouseEvent('mousemove', { bubbles: true }));
    expect(overlays('hover').map((overlay) => overlay.textContent)).toEqual(['p']);
  });

  it('outlines every element that shares the hovered id', () => {
    hover(document.querySelector('li') as Element);
    expect(overlays('hover').map((overlay) => overlay.style.top)).toEqual(['300px', '330px']);
  });

  it('captures the click, selects the element and tells the editor everything about it', () => {
    const event = click(heading.querySelector('em') as Element);
    expect(event.defaultPrevented).toBe(true);
    expect(appClicks).toBe(0);
    expect(ofType('element-selected')).toEqual([
      {
        type: 'element-selected',
        tagName: 'H1',
        classes: 'mt-8 text-4xl',
        visualSelectorId: HEADING,
        // jsdom has no innerText; in a browser this is the heading's rendered text (the e2e suites check it).
        content: undefined,
        dataSourceLocation: HEADING,
        isDynamicContent: false,
        ...PLAIN_ELEMENT_FIELDS,
        isTextElement: true,
        position: { top: 100, left: 10, right: 210, bottom: 140, width: 200, height: 40, centerX: 110, centerY: 120 },
      },
    ]);
    const [selected] = overlays('selected');
    expect(SELECTED_BORDER).toBe('2px solid #2563EB');
    expect(selected?.style.border).toBe('2px solid rgb(37, 99, 235)');
    expect(selected?.style.zIndex).toBe('9999');
    // The label names the tag and, with a chevron, opens the layer menu (the heading has a parent layer).
    expect(selected?.textContent).toBe('h1');
    expect(selected?.querySelector('svg path')?.getAttribute('d')).toBe('M6 9l6 6 6-6');
    expect(overlays('hover')).toEqual([]);
    expect(agent.selectedId).toBe(HEADING);
  });

  it('blocks the other pointer events that would make the app act', () => {
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'dblclick', 'auxclick']) {
      const event = new MouseEvent(type, { bubbles: true, cancelable: true });
      heading.dispatchEvent(event);
      expect(event.defaultPrevented).toBe(true);
    }
  });

  it('does not follow links in edit mode', () => {
    const before = window.location.hash;
    click(document.querySelector('a') as Element);
    expect(window.location.hash).toBe(before);
    expect(ofType('element-selected')[0]?.tagName).toBe('A');
  });

  it('clears the selection on unselect-element', () => {
    click(heading);
    send({ type: 'unselect-element' });
    expect(overlays('selected')).toEqual([]);
    expect(agent.selectedId).toBeNull();
  });

  it('does not hover while the editor drags a popover, but a click still selects, as in the reference', () => {
    send({ type: 'popover-drag-state', data: { isDragging: true } });
    hover(heading);
    expect(overlays('hover')).toEqual([]);
    const event = click(heading);
    expect(event.defaultPrevented).toBe(true);
    expect(ofType('element-selected')).toHaveLength(1);
    send({ type: 'popover-drag-state', data: { isDragging: false } });
    hover(document.querySelector('p') as Element);
    expect(overlays('hover')).toHaveLength(1);
  });

  it('turning edit mode off removes every overlay and the selection', () => {
    hover(document.querySelector('li') as Element);
    click(heading);
    toggle(false);
    expect(document.querySelectorAll('[data-visual-edit-overlay]')).toHaveLength(0);
    expect(agent.selectedId).toBeNull();
  });
});

describe('editor changes', () => {
  beforeEach(() => {
    enable();
    click(heading);
    posted = [];
  });

  it('applies classes and re-syncs the outline 50 ms later, without posting', () => {
    send({ type: 'update-classes', data: { visualSelectorId: HEADING, classes: 'mt-8 text-4xl bg-[rgb(12,34,56)]' } });
    expect(heading.getAttribute('class')).toBe('mt-8 text-4xl bg-[rgb(12,34,56)]');
    place(heading, 160); // the new classes moved it
    jest.advanceTimersByTime(RESYNC_DELAY_MS - 1);
    expect(overlays('selected')[0]?.style.top).toBe('100px');
    jest.advanceTimersByTime(1);
    expect(overlays('selected')[0]?.style.top).toBe('160px');
    expect(posted).toEqual([]);
  });

  it('sets the class attribute of every element sharing the id to exactly the string sent', () => {
    document.querySelector('li')?.setAttribute('class', 'text-4xl underline');
    send({ type: 'update-classes', data: { visualSelectorId: ITEM, classes: 'text-2xl underline' } });
    expect(Array.from(document.querySelectorAll('li'), (item) => item.className)).toEqual([
      'text-2xl underline',
      'text-2xl underline',
    ]);
  });

  it('changes text as text only', () => {
    const paragraph = document.querySelector('p') as HTMLElement;
    send({
      type: 'update-content',
      data: { visualSelectorId: 'components/pages/ComingSoon.tsx:23:9', content: '<b>fett</b>', arrIndex: null },
    });
    expect(paragraph.textContent).toBe('<b>fett</b>');
    expect(paragraph.querySelector('b')).toBeNull();
  });

  it('leaves elements with child elements unchanged', () => {
    send({ type: 'update-content', data: { visualSelectorId: HEADING, content: 'weg', arrIndex: null } });
    expect(heading.innerHTML).toBe('Unsere neue <em>Website</em>');
  });

  it('ignores changes for ids that match nothing', () => {
    const before = document.body.innerHTML;
    send({ type: 'update-classes', data: { visualSelectorId: '"], *, [x="', classes: 'hidden' } });
    send({ type: 'update-content', data: { visualSelectorId: 'nope:1:1', content: 'x', arrIndex: null } });
    expect(document.body.innerHTML).toBe(before);
  });
});

describe('positions', () => {
  beforeEach(() => {
    enable();
    click(heading);
    posted = [];
  });

  it('reports the selection on request, with whether it is in the viewport', () => {
    place(heading, -500);
    send({ type: 'request-element-position' });
    expect(ofType('element-position-update')).toEqual([
      expect.objectContaining({
        visualSelectorId: HEADING,
        isInViewport: false,
        position: expect.objectContaining({ top: -500 }),
      }),
    ]);
  });

  it('reports nothing on request without a selection', () => {
    send({ type: 'unselect-element' });
    send({ type: 'request-element-position' });
    expect(posted).toEqual([]);
  });

  it('reports the selection once per frame while scrolling', () => {
    place(heading, 40);
    window.dispatchEvent(new Event('scroll'));
    window.dispatchEvent(new Event('scroll'));
    jest.advanceTimersByTime(20);
    const updates = ofType('element-position-update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.position.top).toBe(40);
    expect(overlays('selected')[0]?.style.top).toBe('40px');
  });
});

describe('editor dropdowns and page refresh', () => {
  it('tells the editor to close its dropdowns on a click, instead of selecting', () => {
    enable();
    send({ type: 'dropdown-state', data: { isOpen: true } });
    click(heading);
    expect(posted.map((message) => message.type)).toEqual(['close-dropdowns']);
    // Open until the editor says it closed them.
    click(heading);
    expect(posted.map((message) => message.type)).toEqual(['close-dropdowns', 'close-dropdowns']);
    send({ type: 'dropdown-state', data: { isOpen: false } });
    click(heading);
    expect(posted.map((message) => message.type)).toEqual(['close-dropdowns', 'close-dropdowns', 'element-selected']);
  });

  it('leaves clicks outside edit mode to the page, open dropdowns or not, as the reference does', () => {
    send({ type: 'dropdown-state', data: { isOpen: true } });
    const event = click(heading);
    expect(posted).toEqual([]);
    expect(event.defaultPrevented).toBe(false);
    expect(appClicks).toBe(1);
  });

  it('reloads on refresh-page', () => {
    send({ type: 'refresh-page' });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('removes all its listeners when stopped', () => {
    enable();
    agent.stop();
    send({ type: 'dropdown-state', data: { isOpen: true } });
    click(heading);
    expect(posted).toEqual([]);
    expect(appClicks).toBe(1);
  });
});
