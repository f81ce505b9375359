/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver (Debian's webkit2gtk-driver), a classic W3C
 * WebDriver server, driven by `webdriver` (WebdriverIO's protocol client, connecting to the running
 * server, so it never looks for or downloads a driver). MiniBrowser is a GTK window: it needs an X
 * display, an Xvfb of its own per worker. One browser session (a fresh MiniBrowser) per test.
 *
 * WebKitWebDriver 2.50 speaks classic WebDriver only (a session asking for `webSocketUrl`, i.e.
 * WebDriver BiDi, is refused): there are no console or network events and no script that runs before
 * a document's own. So `problems()` listens for CSP violations and uncaught errors from the moment
 * each page has loaded (what breaks during load shows as a page that did not hydrate, which every
 * test checks), and `requests()` is null.
 */
import { spawn } from 'node:child_process';

import type { WebKitTools } from '../../../support/engines';
import { freePort, signalGroup } from '../../../support/processes';
import { aimAt, frameOffset, steadyAim } from './aim';
import {
  CSP_MARK,
  listenForViolations,
  type EngineSession,
  type PageFunction,
  type PointerOptions,
  type Where,
} from './session';

type Client = Awaited<ReturnType<(typeof import('webdriver'))['default']['newSession']>>;
type ElementRef = Record<string, string>;

/**
 * Why the WebKit session cannot go back: after a Back (the WebDriver command, or history.back() from
 * the page) to a page restored from the back/forward cache, WebKitWebDriver 2.50 answers no further
 * command, as it waits for a load that never comes; MiniBrowser's setting to turn that cache off is
 * not applied in automation mode.
 */
export const WEBKIT_NO_BACK = 'WebKitWebDriver hangs after going back to a page from the back/forward cache';

const KEYS = { End: '\uE010', Enter: '\uE007' } as const;

export interface WebKitHost {
  port: number;
  stop(): Promise<void>;
}

/** Starts Xvfb (on the first free display, which it reports itself) and WebKitWebDriver on it. */
export async function startWebKitHost(tools: WebKitTools): Promise<WebKitHost> {
  const xvfb = spawn(tools.xvfb, ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    xvfb.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  const port = await freePort();
  const driver = spawn(tools.driver, [`--port=${port}`, '--host=127.0.0.1'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: display },
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const ready = await fetch(`http://127.0.0.1:${port}/status`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    async stop() {
      signalGroup(driver, 'SIGTERM');
      signalGroup(xvfb, 'SIGTERM');
    },
  };
}

function asScript(fn: PageFunction<unknown[], unknown>): string {
  return `return (${fn.toString()}).apply(null, arguments);`;
}

export async function openWebKitSession(host: WebKitHost, tools: WebKitTools): Promise<EngineSession> {
  // The client flags the W3C Switch To Frame command as deprecated in favour of WebdriverIO's own
  // helper, which this client does not have: the warning is noise here.
  process.env.DISABLE_WEBDRIVERIO_DEPRECATION_WARNINGS = 'true';
  const { default: WebDriver } = await import('webdriver');
  const client: Client = await WebDriver.newSession({
    hostname: '127.0.0.1',
    port: host.port,
    logLevel: 'error',
    logLevels: { webdriver: 'error', '@wdio/utils': 'error' },
    connectionRetryCount: 0,
    capabilities: {
      'wdio:enforceWebDriverClassic': true,
      'webkitgtk:browserOptions': { binary: tools.miniBrowser, args: ['--automation'] },
    } as WebdriverIO.Capabilities,
  });
  await client.setWindowRect(0, 0, 1280, 900).catch(() => undefined);

  async function inContext<T>(where: Where | undefined, run: () => Promise<T>): Promise<T> {
    if (!where?.frame) return run();
    const frame = (await client.findElement('css selector', where.frame)) as unknown as ElementRef;
    await client.switchToFrame(frame);
    try {
      // The frame's document loads on its own: start listening there the first time a test looks in.
      await installListeners();
      return await run();
    } finally {
      await client.switchToParentFrame();
    }
  }

  async function evaluate<Args extends unknown[], Result>(
    fn: PageFunction<Args, Result>,
    args: Args,
    where?: Where,
  ): Promise<Result> {
    return inContext(
      where,
      async () =>
        (await client.executeScript(asScript(fn as PageFunction<unknown[], unknown>), args as object[])) as Result,
    );
  }

  /**
   * The centre of an element in the top page's viewport (a frame's own offset and border added),
   * once a pointer there lands on the element, unless forced.
   */
  async function centre(
    selector: string,
    where: Where | undefined,
    options: PointerOptions,
  ): Promise<{ x: number; y: number }> {
    const aim = () => evaluate(aimAt, [selector], where);
    const inner = options.force ? await aim() : await steadyAim(aim, selector);
    if (inner.found === 'no element') throw new Error(`no element ${selector}`);
    if (!where?.frame) return inner;
    const offset = await evaluate(frameOffset, [where.frame]);
    return { x: offset.x + inner.x, y: offset.y + inner.y };
  }

  async function pointer(
    selector: string,
    where: Where | undefined,
    options: PointerOptions,
    press: boolean,
  ): Promise<void> {
    const { x, y } = await centre(selector, where, options);
    const steps: Array<Record<string, unknown>> = [
      { type: 'pointerMove', duration: 50, origin: 'viewport', x: Math.round(x), y: Math.round(y) },
    ];
    if (press) steps.push({ type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 });
    await client.performActions([
      { type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: steps },
    ]);
  }

  /** Starts recording CSP violations and uncaught errors in the current browsing context. */
  async function installListeners(): Promise<void> {
    await client.executeScript(asScript(listenForViolations as PageFunction<unknown[], unknown>), [CSP_MARK]);
    await client.executeScript(
      asScript(() => {
        const store = window as unknown as { __pageErrors?: string[] };
        if (store.__pageErrors) return;
        const errors: string[] = [];
        store.__pageErrors = errors;
        window.addEventListener('error', (event) => errors.push(event.message));
        window.addEventListener('unhandledrejection', (event) => errors.push(String(event.reason)));
      }),
      [],
    );
  }

  async function problemsHere(): Promise<string[]> {
    const read = () => [
      ...((window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []),
      ...((window as unknown as { __pageErrors?: string[] }).__pageErrors ?? []),
    ];
    return (await client.executeScript(asScript(read), [])) as string[];
  }

  return {
    engine: 'webkit',
    async goto(url) {
      await client.navigateTo(url);
      await installListeners();
    },
    async back() {
      throw new Error(WEBKIT_NO_BACK);
    },
    url: () => client.getUrl(),
    evaluate,
    hover: (selector, where, options = {}) => pointer(selector, where, options, false),
    click: (selector, where, options = {}) => pointer(selector, where, options, true),
    async type(text) {
      const actions = [...text].flatMap((key) => [
        { type: 'keyDown', value: key },
        { type: 'keyUp', value: key },
      ]);
      await client.performActions([{ type: 'key', id: 'keyboard', actions }]);
    },
    async press(key) {
      const value = KEYS[key];
      await client.performActions([
        {
          type: 'key',
          id: 'keyboard',
          actions: [
            { type: 'keyDown', value },
            { type: 'keyUp', value },
          ],
        },
      ]);
    },
    async problems() {
      const messages = await problemsHere();
      const frames = (await evaluate(() => document.querySelectorAll('iframe').length, [])) as number;
      for (let index = 0; index < frames; index += 1) {
        await client.switchToFrame(index);
        try {
          messages.push(...(await problemsHere()));
        } finally {
          await client.switchToParentFrame();
        }
      }
      return { messages, complete: false };
    },
    requests: () => null,
    async close() {
      await client.deleteSession().catch(() => undefined);
    },
  };
}
