/**
 * A faithfully stubbed browser for the rows that need one: `window` with a location that records
 * navigations instead of performing them, localStorage, history and a minimal document. Installed on
 * globalThis BEFORE either client is imported, because the reference decides "browser or not" (and
 * "inside an iframe") once, at import time.
 *
 * jsdom is not used: its location cannot record where a page was sent, and its XHR adds CORS rules
 * that the platform's real browser clients meet on the platform's side, not ours.
 */

export const PAGE_URL = 'https://site.example/start?tab=1#top';

class MemoryStorage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.has(key) ? (this.items.get(key) as string) : null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.items].sort(([a], [b]) => a.localeCompare(b)));
  }
}

export interface FakePopup {
  closed: boolean;
  close(): void;
}

export interface FakeBrowser {
  storage: MemoryStorage;
  /**
   * Every URL the page was sent to, in order; popups as `popup:<url>`. Like the minimal stubs of
   * tests and embedded runtimes, the location navigates only by assigning `href` (no `assign` or
   * `replace`), which is how the reference navigates.
   */
  navigations: string[];
  reloads: number;
  /** The last window opened with window.open. */
  popup: FakePopup | undefined;
  /** Puts the page back at `url` (inside a frame when `framed`) with empty storage and no recorded navigations. */
  reset(url?: string, framed?: boolean): void;
  /** Delivers a `message` event to the page as if `source` had posted it from `origin`. */
  postMessage(data: unknown, origin: string, source: unknown): void;
}

export function installFakeBrowser(): FakeBrowser {
  let current = new URL(PAGE_URL);
  const storage = new MemoryStorage();
  const listeners = new EventTarget();
  let fakeWindow: Record<string, unknown> = {};
  const browser: FakeBrowser = {
    storage,
    navigations: [],
    reloads: 0,
    popup: undefined,
    reset(url = PAGE_URL, framed = false) {
      current = new URL(url);
      storage.clear();
      browser.navigations.length = 0;
      browser.reloads = 0;
      browser.popup = undefined;
      fakeWindow.parent = framed ? { frameOf: 'editor' } : fakeWindow;
      fakeWindow.top = fakeWindow.parent;
    },
    postMessage(data, origin, source) {
      listeners.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
    },
  };
  const navigate = (url: string) => {
    browser.navigations.push(new URL(url, current).href);
  };
  const location = {
    get href() {
      return current.href;
    },
    set href(url: string) {
      navigate(url);
    },
    get origin() {
      return current.origin;
    },
    get protocol() {
      return current.protocol;
    },
    get host() {
      return current.host;
    },
    get hostname() {
      return current.hostname;
    },
    get pathname() {
      return current.pathname;
    },
    get search() {
      return current.search;
    },
    get hash() {
      return current.hash;
    },
    reload: () => {
      browser.reloads += 1;
    },
    toString: () => current.href,
  };
  fakeWindow = {
    location,
    localStorage: storage,
    history: {
      replaceState: (_state: unknown, _title: string, url?: string) => {
        if (url) current = new URL(url, current);
      },
    },
    addEventListener: listeners.addEventListener.bind(listeners),
    removeEventListener: listeners.removeEventListener.bind(listeners),
    dispatchEvent: listeners.dispatchEvent.bind(listeners),
    open: (url: string) => {
      browser.navigations.push(`popup:${new URL(url, current).href}`);
      const popup: FakePopup = {
        closed: false,
        close() {
          popup.closed = true;
        },
      };
      browser.popup = popup;
      return popup;
    },
    screenX: 0,
    screenY: 0,
    outerWidth: 1024,
    outerHeight: 768,
  };
  fakeWindow.self = fakeWindow;
  fakeWindow.top = fakeWindow;
  fakeWindow.parent = fakeWindow;
  const globals = globalThis as Record<string, unknown>;
  globals.window = fakeWindow;
  globals.localStorage = storage;
  globals.location = location;
  globals.document = { referrer: '', title: 'Test', visibilityState: 'visible' };
  return browser;
}
