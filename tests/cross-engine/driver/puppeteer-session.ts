/**
 * Chromium (over the DevTools protocol) and Firefox (over WebDriver BiDi, which Firefox serves itself,
 * so no geckodriver is needed) through puppeteer-core, which never downloads a browser when given an
 * executable. One browser per worker, one fresh browser context (own cookies and storage) per test.
 */
import puppeteer, {
  type Browser,
  type BrowserContext,
  type ElementHandle,
  type Frame,
  type Page,
} from 'puppeteer-core';

import { PUPPETEER_CHROMIUM_FLAGS, resolveBrowser } from '../../../support/browser';
import { findFirefox } from '../../../support/engines';
import { aimAt, frameOffset, steadyAim } from './aim';
import {
  CSP_MARK,
  listenForViolations,
  recordedViolations,
  type EngineSession,
  type PageFunction,
  type PointerOptions,
  type SentRequest,
  type Where,
} from './session';

/** What Firefox's BiDi says when a navigate overlaps one the page started itself (see `goto`). */
const OVERLAPPING_NAVIGATION = /interrupted an unfinished navigation|NS_BINDING_ABORTED/;

export async function launchPuppeteerBrowser(engine: 'chromium' | 'firefox'): Promise<Browser> {
  if (engine === 'firefox') {
    const executablePath = findFirefox();
    if (!executablePath) throw new Error('Firefox not found');
    return puppeteer.launch({ browser: 'firefox', executablePath, headless: true });
  }
  const { executablePath } = resolveBrowser();
  if (!executablePath)
    throw new Error("The cross-engine suite needs a Chromium executable (CHROME_PATH or 'chromium')");
  return puppeteer.launch({ browser: 'chrome', executablePath, headless: true, args: PUPPETEER_CHROMIUM_FLAGS });
}

const VIEWPORT = { width: 1280, height: 800 };

/**
 * What Firefox ESR 140 answers to the screen orientation that puppeteer 24 sends with every viewport
 * over BiDi (`emulation.setScreenOrientationOverride`, which that Firefox does not have yet).
 */
const NO_ORIENTATION_OVERRIDE = /unknown command emulation\.setScreenOrientationOverride/;

/**
 * Sets the page's viewport. Puppeteer sends the size and the orientation at once and fails as soon
 * as one fails; where the browser lacks only the orientation command (Firefox ESR 140), the size
 * still applies a moment later, which is waited for here, so a viewport that did not take still
 * fails the test.
 */
async function setViewport(page: Page, viewport: { width: number; height: number }): Promise<void> {
  try {
    await page.setViewport(viewport);
  } catch (error) {
    if (!(error instanceof Error) || !NO_ORIENTATION_OVERRIDE.test(error.message)) throw error;
    await page
      .waitForFunction(
        (width: number, height: number) => window.innerWidth === width && window.innerHeight === height,
        { timeout: 5000 },
        viewport.width,
        viewport.height,
      )
      .catch((timeout: unknown) => {
        throw new Error(`The viewport did not become ${viewport.width}×${viewport.height}`, { cause: timeout });
      });
  }
}

export async function openPuppeteerSession(browser: Browser, engine: 'chromium' | 'firefox'): Promise<EngineSession> {
  const context: BrowserContext = await browser.createBrowserContext();
  const page: Page = await context.newPage();
  await setViewport(page, VIEWPORT);
  const messages: string[] = [];
  const requests: SentRequest[] = [];
  page.on('console', (message) => {
    // With the address it is about: "Failed to load resource" lines name no URL themselves.
    const where = message.location()?.url;
    if (message.type() === 'error') messages.push(where ? `${message.text()} @ ${where}` : message.text());
  });
  page.on('pageerror', (error) => messages.push(error instanceof Error ? error.message : String(error)));
  page.on('request', (request) => {
    const headers = request.headers();
    requests.push({
      url: request.url(),
      referer: headers.referer ?? null,
      authorization: headers.authorization ?? null,
    });
  });
  await page.evaluateOnNewDocument(listenForViolations, CSP_MARK);

  async function frameOf(where?: Where): Promise<Frame> {
    if (!where?.frame) return page.mainFrame();
    const element = await page.waitForSelector(where.frame);
    const frame = await element?.contentFrame();
    if (!frame) throw new Error(`no frame at ${where.frame}`);
    return frame;
  }

  /**
   * Moves the pointer to an element once visible and, unless forced, once a pointer at its centre
   * lands on it, and presses it when asked. In a frame the spot is that aim plus the frame's offset,
   * as the WebKit driver computes it: puppeteer finds a frame's element through a BiDi locator
   * Firefox ESR 140 does not have (`context`).
   */
  async function pointer(selector: string, where: Where | undefined, options: PointerOptions, press: boolean) {
    const frame = await frameOf(where);
    const found: ElementHandle | null = await frame.waitForSelector(selector, { visible: true });
    if (!found) throw new Error(`no element ${selector}`);
    const aim = () => frame.evaluate(aimAt, selector);
    if (!where?.frame) {
      if (!options.force) await steadyAim(aim, selector);
      return void (await (press ? found.click() : found.hover()));
    }
    const inner = options.force ? await aim() : await steadyAim(aim, selector);
    const offset = await page.evaluate(frameOffset, where.frame);
    const [x, y] = [offset.x + inner.x, offset.y + inner.y];
    await (press ? page.mouse.click(x, y) : page.mouse.move(x, y));
  }

  return {
    engine,
    async goto(url) {
      try {
        await page.goto(url, { waitUntil: 'load' });
      } catch (error) {
        // Firefox's BiDi refuses a navigate that overlaps a navigation the page itself started
        // moments before (the shell tidies its address with history.replaceState); the page is
        // still the one the test loaded, so asking once more is the same request, not a looser test.
        // Under load the same overlap can surface as the load being aborted (NS_BINDING_ABORTED, seen
        // once beside a CPU hog: Next's router also records its state with history.replaceState as it
        // hydrates, and the previous page was still hydrating when the test moved on).
        if (!(error instanceof Error) || !OVERLAPPING_NAVIGATION.test(error.message)) throw error;
        await page.goto(url, { waitUntil: 'load' });
      }
    },
    async back() {
      await page.goBack({ waitUntil: 'load' });
    },
    async url() {
      // The document's own address: puppeteer's page.url() over BiDi follows history.replaceState
      // only where the browser reports it (browsingContext.historyUpdated), which Firefox ESR 140
      // does not for these pages, so it kept the address the shell had already replaced. While a
      // navigation swaps the document, the last address puppeteer knows stands in.
      try {
        return await page.evaluate(() => window.location.href);
      } catch {
        return page.url();
      }
    },
    async evaluate<Args extends unknown[], Result>(fn: PageFunction<Args, Result>, args: Args, where?: Where) {
      const frame = await frameOf(where);
      return (await frame.evaluate(fn as (...values: unknown[]) => Result, ...args)) as Result;
    },
    hover: (selector, where, options = {}) => pointer(selector, where, options, false),
    click: (selector, where, options = {}) => pointer(selector, where, options, true),
    async type(text) {
      await page.keyboard.type(text);
    },
    async press(key) {
      await page.keyboard.press(key);
    },
    async problems() {
      const inFrames: string[] = [];
      for (const frame of page.frames()) {
        inFrames.push(...(await frame.evaluate(recordedViolations).catch(() => [] as string[])));
      }
      return { messages: [...messages, ...inFrames], complete: true };
    },
    requests: () => requests,
    async close() {
      await context.close();
    },
  };
}
