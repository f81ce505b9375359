/**
 * What a cross-engine test may do with a browser, the same in every engine: navigate, run a script
 * in the page or in one of its frames, move a real pointer and type on a real keyboard (WebDriver
 * actions or the engine's input protocol, never synthetic DOM events), and read what the engine
 * reported (console errors, CSP violations, requests) where its protocol can report it.
 */
import type { Engine } from '../../../support/engines';

/** A function run in the page: its source is sent to the browser, so it may not close over anything. */
export type PageFunction<Args extends unknown[], Result> = (...args: Args) => Result | Promise<Result>;

export interface Where {
  /** CSS selector of an <iframe> of the top page: run in that frame instead. */
  frame?: string;
}

export interface PointerOptions {
  /**
   * Aim at the element's centre at once, whatever covers it there (Playwright's `force`): for a test
   * that proves a click there reaches nothing. Otherwise the pointer moves only once the element is
   * what a pointer there hits and has stopped moving (driver/aim.ts).
   */
  force?: boolean;
}

/** One request as the browser sent it. */
export interface SentRequest {
  url: string;
  referer: string | null;
  authorization: string | null;
}

export interface EngineSession {
  readonly engine: Engine;
  /** Navigates the top page and waits for its load event. */
  goto(url: string): Promise<void>;
  back(): Promise<void>;
  url(): Promise<string>;
  evaluate<Args extends unknown[], Result>(fn: PageFunction<Args, Result>, args: Args, where?: Where): Promise<Result>;
  /** Moves the pointer onto the centre of the first element matching `selector`. */
  hover(selector: string, where?: Where, options?: PointerOptions): Promise<void>;
  /** Moves there and clicks with the primary button. */
  click(selector: string, where?: Where, options?: PointerOptions): Promise<void>;
  /** Types text into whatever has focus, key by key. */
  type(text: string): Promise<void>;
  /** Presses and releases one named key: 'End', 'Enter'. */
  press(key: 'End' | 'Enter'): Promise<void>;
  /**
   * Console errors, uncaught errors and Content Security Policy violations of the page and its frames
   * since the session started; `complete` is false where the engine's protocol cannot report those that
   * happen before a test script can listen (see the WebKit session).
   */
  problems(): Promise<{ messages: string[]; complete: boolean }>;
  /** Every request so far with the headers that went over the wire; null where the protocol has no network events. */
  requests(): SentRequest[] | null;
  close(): Promise<void>;
}

/** The mark the in-page listener gives a CSP violation, so it can be told apart from other errors. */
export const CSP_MARK = 'CSP violation:';

/**
 * Installed in every document (or, where the engine cannot, right after each load): records CSP
 * violations of the document, which are not console messages in every engine.
 */
export function listenForViolations(mark: string): void {
  const store = window as unknown as { __cspViolations?: string[] };
  if (store.__cspViolations) return;
  const found: string[] = [];
  store.__cspViolations = found;
  document.addEventListener('securitypolicyviolation', (event) => {
    found.push(`${mark} ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`);
  });
}

/** Reads what listenForViolations recorded in a document. */
export function recordedViolations(): string[] {
  return (window as unknown as { __cspViolations?: string[] }).__cspViolations?.slice() ?? [];
}
