import vm from 'node:vm';

import { firstLoadScripts, frameworkLoader, PAINT_WAIT_MS } from '@/build-steps/export/framework-loader';

const SOURCES = ['/_next/static/chunks/a.js', '/_next/static/chunks/turbopack-b.js'];

interface Setting {
  visibility?: 'visible' | 'hidden' | 'prerender';
  entryTypes?: string[] | null;
  paintedAlready?: boolean;
}

/** Runs the loader against a stand-in document and answers what it did and the hooks it left. */
function run(
  { visibility = 'visible', entryTypes = ['navigation', 'paint'], paintedAlready = false }: Setting = {},
  sources: readonly string[] = SOURCES,
) {
  const added: { src: string; async: boolean }[] = [];
  const hooks: { paint?: () => void; visibility?: () => void; timer?: () => void; wait?: number; observed?: unknown } =
    {};
  /** Timers of no wait: the loader's next chunk, one task later. */
  const nextTasks: (() => void)[] = [];
  class FakeObserver {
    static supportedEntryTypes = entryTypes ?? undefined;
    constructor(callback: () => void) {
      hooks.paint = callback;
    }
    observe(options: unknown) {
      hooks.observed = options;
    }
  }
  const document = {
    visibilityState: visibility,
    createElement: (tag: string) => ({ tag, src: '', async: false }),
    body: { appendChild: (element: { src: string; async: boolean }) => added.push({ ...element }) },
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'visibilitychange') hooks.visibility = listener;
    },
  };
  const context = {
    document,
    self: entryTypes === null ? {} : { PerformanceObserver: FakeObserver },
    performance: { getEntriesByType: (type: string) => (type === 'paint' && paintedAlready ? [{}] : []) },
    setTimeout: (callback: () => void, wait: number) => {
      if (wait === 0) {
        nextTasks.push(callback);
        return;
      }
      hooks.timer = callback;
      hooks.wait = wait;
    },
  };
  vm.runInNewContext(frameworkLoader(sources), context);
  /** Runs the tasks queued so far, one by one, and those they queue; answers how many ran. */
  const runTasks = () => {
    let ran = 0;
    for (let task = nextTasks.shift(); task; task = nextTasks.shift()) {
      task();
      ran += 1;
    }
    return ran;
  };
  return { added, hooks, nextTasks, runTasks };
}

const BOTH = SOURCES.map((src) => ({ tag: 'script', src, async: true }));

describe('frameworkLoader', () => {
  it('adds nothing before the first paint, then every chunk once, async and in order', () => {
    const { added, hooks, runTasks } = run();
    expect(added).toEqual([]);
    expect(hooks.observed).toEqual({ type: 'paint' });
    hooks.paint?.();
    runTasks();
    expect(added).toEqual(BOTH);
    hooks.timer?.();
    hooks.paint?.();
    hooks.visibility?.();
    expect(runTasks()).toBe(0);
    expect(added).toHaveLength(2);
  });

  it('adds one chunk per task, so that starting the requests is no long task', () => {
    const sources = Array.from({ length: 8 }, (_, index) => `/_next/static/chunks/c${index}.js`);
    const { added, hooks, nextTasks } = run({}, sources);
    hooks.paint?.();
    for (let count = 1; count <= sources.length; count += 1) {
      expect(added.map((element) => element.src)).toEqual(sources.slice(0, count));
      expect(nextTasks).toHaveLength(count < sources.length ? 1 : 0);
      nextTasks.shift()?.();
    }
  });

  it('does not wait longer than PAINT_WAIT_MS for a paint that is not reported', () => {
    const { added, hooks, runTasks } = run();
    expect(hooks.wait).toBe(PAINT_WAIT_MS);
    hooks.timer?.();
    runTasks();
    expect(added).toEqual(BOTH);
    hooks.paint?.();
    expect(runTasks()).toBe(0);
    expect(added).toHaveLength(2);
  });

  it('starts when the tab is hidden before it painted', () => {
    const { added, hooks, runTasks } = run();
    hooks.visibility?.();
    runTasks();
    expect(added).toEqual(BOTH);
  });

  it.each<[string, Setting]>([
    ['a hidden tab', { visibility: 'hidden' }],
    ['a prerendering tab', { visibility: 'prerender' }],
    ['a browser without paint timing', { entryTypes: ['navigation'] }],
    ['a browser without PerformanceObserver', { entryTypes: null }],
    ['a page that has painted already', { paintedAlready: true }],
  ])('starts at once in %s', (_name, setting) => {
    const { added, runTasks } = run(setting);
    expect(added).toEqual(BOTH.slice(0, 1));
    runTasks();
    expect(added).toEqual(BOTH);
  });

  it('refuses a chunk address that could end the script or leave the chunk folder', () => {
    expect(() => frameworkLoader(['/_next/static/chunks/a</script>.js'])).toThrow(/unexpected chunk address/);
    expect(() => frameworkLoader(['/_next/static/../../x.js'])).toThrow(/unexpected chunk address/);
    expect(() => frameworkLoader(['https://elsewhere.example/a.js'])).toThrow(/unexpected chunk address/);
  });
});

describe('firstLoadScripts', () => {
  it("lists a page's script elements and the chunks its loader adds, in order, without the noModule polyfill", () => {
    const html =
      '<html><head><script src="/_next/static/chunks/p.js" noModule=""></script>' +
      '<script src="/_next/static/chunks/early.js" async=""></script><script>(function(){})(window,{})</script></head>' +
      `<body><script>self.__next_f.push([1,"a"])</script><script>${frameworkLoader(SOURCES)}</script></body></html>`;
    expect(firstLoadScripts(html)).toEqual(['/_next/static/chunks/early.js', ...SOURCES]);
  });

  it('refuses a loader whose list was changed to leave the chunk folder', () => {
    const tampered = frameworkLoader(SOURCES).replace('/_next/static/chunks/a.js', '/_next/static/../a.js');
    expect(() => firstLoadScripts(`<script>${tampered}</script>`)).toThrow(/unexpected chunk address/);
    const listless = frameworkLoader(SOURCES).replace(JSON.stringify(SOURCES), '{}');
    expect(() => firstLoadScripts(`<script>${listless}</script>`)).toThrow(/no list of chunk addresses/);
  });
});
