import { startBridge, type Bridge, type BridgeOptions } from '@/lib/frame/bridge';
import { createOriginPolicy } from '@/lib/frame/origin-policy';

import { randomMessage, seededRandom } from '../../e2e/fixtures/editor/fuzz-messages';

const EDITOR = 'http://127.0.0.1:3110';
const HEADING = 'components/pages/ComingSoon.tsx:17:9';
const NO_HINTS = { ancestorOrigin: null, referrer: '', selfOrigin: 'http://127.0.0.1:3100' };

let frame: HTMLIFrameElement;
/** The framed window, typed with its own realm's constructors (MessageEvent, ErrorEvent...). */
let child: Window & typeof globalThis;
let bridge: Bridge | null;
let posts: jest.SpyInstance;
let reload: jest.Mock;

/** Starts the bridge inside the iframe, as the site would run inside the editor. */
function start(options: Partial<BridgeOptions> = {}): Bridge {
  bridge = startBridge({
    win: child,
    policy: createOriginPolicy([EDITOR], { allowLoopback: false }),
    hints: NO_HINTS,
    logDrops: false,
    loadTailwind: () => Promise.resolve(),
    reload,
    ...options,
  });
  return bridge;
}

/** Delivers a message to the framed page as if `source` had posted it from `origin`. */
function deliver(data: unknown, origin = EDITOR, source: Window | null = window): void {
  child.dispatchEvent(new child.MessageEvent('message', { data, origin, source }));
}

const sentMessages = () => posts.mock.calls.map(([message]) => message as { type: string });
const sentTypes = () => sentMessages().map((message) => message.type);
const targetOrigins = () => posts.mock.calls.map(([, targetOrigin]) => targetOrigin as string);
const heading = () => child.document.querySelector('h1') as HTMLElement;

function clickHeading(): void {
  heading().dispatchEvent(new child.MouseEvent('click', { bubbles: true, cancelable: true }));
}

beforeEach(() => {
  frame = document.createElement('iframe');
  document.body.append(frame);
  child = frame.contentWindow as Window & typeof globalThis;
  child.document.body.innerHTML = `<main><h1 class="text-4xl" data-source-location="${HEADING}">Unsere neue Website</h1></main>`;
  // The parent is this test window: record what the bridge posts to it.
  posts = jest.spyOn(window, 'postMessage').mockImplementation(() => undefined);
  reload = jest.fn();
  bridge = null;
});

afterEach(() => {
  bridge?.stop();
  frame.remove();
  posts.mockRestore();
});

describe('starting', () => {
  it('does nothing in a window that is not framed', () => {
    const topLevel = startBridge({ win: window, policy: createOriginPolicy([EDITOR], { allowLoopback: false }) });
    expect(topLevel.agent).toBeNull();
    expect(posts).not.toHaveBeenCalled();
    topLevel.stop();
  });

  it('announces itself and the address to the pinned editor origin, never to *', () => {
    start();
    expect(bridge?.parentOrigin).toBe(EDITOR);
    expect(sentTypes()).toEqual(['visual-edit-agent-ready', 'sandbox:onMounted', 'app_changed_url']);
    expect(targetOrigins()).toEqual([EDITOR, EDITOR, EDITOR]);
  });

  it('returns the running bridge when started twice', () => {
    const first = start();
    expect(startBridge({ win: child })).toBe(first);
  });

  it('stays off when the browser says the parent is not an allowed editor', () => {
    start({ hints: { ...NO_HINTS, ancestorOrigin: 'https://evil.test' } });
    expect(bridge?.refusedOrigin).toBe('https://evil.test');
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } }, 'https://evil.test');
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } });
    clickHeading();
    expect(posts).not.toHaveBeenCalled();
  });
});

describe('incoming messages', () => {
  it('obeys a valid message from the parent on the allowed origin', () => {
    start();
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } });
    expect(bridge?.agent?.enabled).toBe(true);
    clickHeading();
    expect(sentMessages().at(-1)).toMatchObject({ type: 'element-selected', tagName: 'H1', visualSelectorId: HEADING });
    expect(targetOrigins().every((origin) => origin === EDITOR)).toBe(true);
  });

  it('drops messages from any window but the parent, even on the allowed origin', () => {
    start();
    const sibling = document.createElement('iframe');
    document.body.append(sibling);
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } }, EDITOR, sibling.contentWindow);
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } }, EDITOR, child);
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } }, EDITOR, null);
    sibling.remove();
    expect(bridge?.agent?.enabled).toBe(false);
    expect(bridge?.dropped.source).toBe(3);
  });

  it.each([
    'https://evil.test',
    'http://127.0.0.1:3111',
    'http://localhost:3110',
    'http://127.0.0.1:3110.evil.test',
    'null',
    '',
  ])('drops messages from the parent on the origin %j', (origin) => {
    start();
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } }, origin);
    expect(bridge?.agent?.enabled).toBe(false);
    expect(bridge?.dropped.origin).toBe(1);
  });

  it('drops malformed messages from the allowed parent', () => {
    start();
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: 'yes' } });
    deliver('toggle-visual-edit-mode');
    deliver(null);
    expect(bridge?.agent?.enabled).toBe(false);
    expect(bridge?.dropped.shape).toBe(3);
  });

  it('logs the first drop of each kind once, when asked to', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    start({ logDrops: true });
    deliver({ type: 'x' });
    deliver({ type: 'y' });
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } }, 'https://evil.test');
    expect(warn).toHaveBeenCalledTimes(2);
    expect(bridge?.dropped).toMatchObject({ shape: 2, origin: 1 });
    warn.mockRestore();
  });
});

describe('pinning the parent origin', () => {
  const twoEditors = () => createOriginPolicy([EDITOR, 'https://editor.example.com'], { allowLoopback: false });

  it('waits for the first valid message, then talks to that origin only', () => {
    start({ policy: twoEditors() });
    expect(bridge?.parentOrigin).toBeNull();
    expect(posts).not.toHaveBeenCalled();

    deliver({ type: 'dropdown-state', data: { isOpen: false } }, 'https://editor.example.com');
    expect(bridge?.parentOrigin).toBe('https://editor.example.com');
    // What it wanted to say meanwhile goes out now, to that origin.
    expect(sentTypes()).toEqual(['visual-edit-agent-ready', 'sandbox:onMounted', 'app_changed_url']);
    expect(targetOrigins()).toEqual([
      'https://editor.example.com',
      'https://editor.example.com',
      'https://editor.example.com',
    ]);

    // The other allowed origin is no longer accepted.
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } }, EDITOR);
    expect(bridge?.agent?.enabled).toBe(false);
    expect(bridge?.dropped.origin).toBe(1);
  });

  it('does not pin on an invalid message', () => {
    start({ policy: twoEditors() });
    deliver({ type: 'nonsense' }, EDITOR);
    expect(bridge?.parentOrigin).toBeNull();
  });
});

describe('the framing guard (lib/frame/frame-guard.ts)', () => {
  const guard = (verdict: string) => {
    const root = child.document.documentElement;
    root.setAttribute('data-frame-guard', verdict);
    root.inert = true;
    return root;
  };

  it('lifts an unproven guard on the first valid message of the allowed parent, not before', () => {
    const root = guard('unproven');
    start();
    deliver({ type: 'dropdown-state', data: { isOpen: false } }, 'https://evil.test');
    deliver({ type: 'dropdown-state', data: { isOpen: false } }, EDITOR, null);
    deliver({ type: 'nonsense' });
    expect([root.getAttribute('data-frame-guard'), root.inert]).toEqual(['unproven', true]);
    deliver({ type: 'dropdown-state', data: { isOpen: false } });
    expect([root.hasAttribute('data-frame-guard'), root.inert]).toEqual([false, false]);
  });

  it('keeps a hostile verdict whatever the parent says', () => {
    const root = guard('hostile');
    start();
    deliver({ type: 'dropdown-state', data: { isOpen: false } });
    expect([root.getAttribute('data-frame-guard'), root.inert]).toEqual(['hostile', true]);
  });
});

describe('forwarding', () => {
  it('forwards uncaught errors in the frame as app_error, except HTTP 402', () => {
    start();
    child.dispatchEvent(new child.ErrorEvent('error', { message: 'Boom', error: new Error('Boom') }));
    child.dispatchEvent(
      new child.ErrorEvent('error', { message: 'x', error: Object.assign(new Error('x'), { status: 402 }) }),
    );
    const errors = sentMessages().filter((message) => message.type === 'app_error');
    expect(errors).toEqual([{ type: 'app_error', error: expect.objectContaining({ title: 'Boom' }) }]);
  });

  it('reports route changes as app_changed_url', async () => {
    start();
    child.location.hash = 'elsewhere';
    await new Promise((resolve) => setTimeout(resolve, 0));
    const urls = sentMessages()
      .filter((message) => message.type === 'app_changed_url')
      .map((message) => (message as unknown as { url: string }).url);
    expect(urls).toHaveLength(2);
    expect(urls[1]).toMatch(/#elsewhere$/);
  });

  it('stops everything when stopped', () => {
    start();
    bridge?.stop();
    posts.mockClear();
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } });
    child.dispatchEvent(new child.ErrorEvent('error', { message: 'after', error: new Error('after') }));
    clickHeading();
    expect(posts).not.toHaveBeenCalled();
  });
});

describe('fuzzing from the allowed parent', () => {
  it('survives 1,000 random and malformed messages and keeps working', () => {
    const uncaught: unknown[] = [];
    child.addEventListener('error', (event) => uncaught.push(event.error));
    start();
    const random = seededRandom(0x5eed);
    let accepted = 0;
    for (let index = 0; index < 1000; index += 1) {
      const before = bridge?.dropped.shape ?? 0;
      expect(() => deliver(randomMessage(random, { ids: [HEADING] }))).not.toThrow();
      if ((bridge?.dropped.shape ?? 0) === before) accepted += 1;
    }
    expect(uncaught).toEqual([]);
    expect(bridge?.dropped.handler).toBe(0);
    expect(sentTypes()).not.toContain('app_error');
    // The generator produces both kinds, so both paths were exercised.
    expect(accepted).toBeGreaterThan(100);
    expect(bridge?.dropped.shape).toBeGreaterThan(100);

    // Still working: edit mode, selection and the page itself.
    deliver({ type: 'dropdown-state', data: { isOpen: false } });
    deliver({ type: 'popover-drag-state', data: { isDragging: false } });
    deliver({ type: 'toggle-visual-edit-mode', data: { enabled: true } });
    posts.mockClear();
    clickHeading();
    expect(sentMessages()).toEqual([expect.objectContaining({ type: 'element-selected', visualSelectorId: HEADING })]);
    // Valid refresh-page messages were among them and were obeyed.
    expect(reload).toHaveBeenCalled();
  });
});
