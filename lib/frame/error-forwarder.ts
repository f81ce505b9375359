/**
 * Forwards uncaught errors and unhandled rejections to the editor as `app_error`, except HTTP 402
 * (payment required), which the platform shows in its own way.
 *
 * Anything can be thrown: strings, null, frozen objects, proxies whose getters throw, errors without
 * a stack, the browser's cross-origin "Script error." with no error at all. The reference forwarder
 * crashed on some of these; this one reads every property defensively and never throws out of a
 * handler, because an exception there would itself be an uncaught error.
 */
import { isDevelopmentBuild } from '@/lib/config/env';

import type { ForwardedError } from './messages';

export const MAX_TITLE_LENGTH = 300;
export const MAX_DETAILS_LENGTH = 2000;
export const MAX_STACK_LENGTH = 10_000;
const MAX_COMPONENT_NAME_LENGTH = 100;
/** At most this many reports per window, so an error in a render loop cannot flood the editor. */
export const MAX_REPORTS_PER_WINDOW = 20;
export const REPORT_WINDOW_MS = 10_000;
const MAX_CAUSE_DEPTH = 3;

/** Reads `key` from anything without letting a getter or proxy trap throw. */
function readProperty(value: unknown, key: string): unknown {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function readString(value: unknown, key: string): string | undefined {
  const found = readProperty(value, key);
  return typeof found === 'string' ? found : undefined;
}

/** String(value) that survives symbols, null-prototype objects and throwing toString methods. */
function safeToString(value: unknown): string {
  try {
    if (typeof value === 'string') return value;
    if (typeof value === 'symbol') return value.toString();
    if (typeof value === 'object' && value !== null) {
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch {
        json = undefined; // cycles, BigInt, throwing toJSON: fall back to the tag
      }
      if (typeof json === 'string' && json !== '{}') return json;
      return Object.prototype.toString.call(value);
    }
    return String(value);
  } catch {
    return 'a value that cannot be displayed';
  }
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// "Request failed with status code 402" (axios and docs/SPEC.md's transport message) and
// "[GET] \"/x\": 402 Payment Required" (ofetch): raw HTTP errors that lost their status property.
const PAYMENT_REQUIRED_TEXT = /status code 402\b|\b402 Payment Required\b/i;

/**
 * True for an HTTP 402, recognised by shape so it works for our PlatformError (`status`), ofetch's
 * FetchError (`status`, `statusCode`), axios-style errors (`response.status`), their `cause`, and
 * bare messages, without importing the SDK into the bridge.
 */
export function isPaymentRequiredError(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return PAYMENT_REQUIRED_TEXT.test(value);
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  if (readProperty(value, 'status') === 402 || readProperty(value, 'statusCode') === 402) return true;
  if (readProperty(readProperty(value, 'response'), 'status') === 402) return true;
  const message = readString(value, 'message');
  if (message !== undefined && PAYMENT_REQUIRED_TEXT.test(message)) return true;
  return depth < MAX_CAUSE_DEPTH && isPaymentRequiredError(readProperty(value, 'cause'), depth + 1);
}

const NOT_COMPONENTS = new Set([
  'Object',
  'Array',
  'Promise',
  'Function',
  'Error',
  'JSON',
  'Reflect',
  'Proxy',
  'Map',
  'Set',
  'Module',
  'Generator',
  'AsyncFunction',
  'String',
  'Number',
  'Boolean',
  'Symbol',
  'Date',
  'RegExp',
]);

/**
 * The first stack frame that looks like a React component (a capitalised function name), from V8
 * (`at Name (`) or Firefox/Safari (`Name@`) stacks. Null when there is none; minified production
 * names are reported as they are.
 */
export function componentNameFromStack(stack: string | null): string | null {
  if (!stack) return null;
  for (const line of stack.split('\n', 50)) {
    const match = /^\s*at (?:async )?([A-Za-z_$][\w$.]*) \(/.exec(line) ?? /^([A-Za-z_$][\w$.]*)@/.exec(line);
    const name = match?.[1]?.split('.').pop();
    if (name && /^[A-Z]/.test(name) && !NOT_COMPONENTS.has(name)) return cap(name, MAX_COMPONENT_NAME_LENGTH);
  }
  return null;
}

export interface ErrorLocation {
  filename?: string;
  lineno?: number;
  colno?: number;
}

/** Turns whatever was thrown into the payload the editor shows. Never throws. */
export function describeThrown(thrown: unknown, location: ErrorLocation = {}): ForwardedError {
  const name = readString(thrown, 'name');
  const message = readString(thrown, 'message');
  const rawStack = readString(thrown, 'stack');
  const stack = rawStack ? cap(rawStack, MAX_STACK_LENGTH) : null;
  const isErrorLike = message !== undefined || name !== undefined;

  const text = isErrorLike ? (message ?? '') : safeToString(thrown);
  const title = text || name || 'Uncaught error';
  const lines = [isErrorLike ? `${name ?? 'Error'}: ${message ?? ''}`.trim() : `Thrown value: ${text}`];
  if (location.filename) lines.push(`at ${location.filename}:${location.lineno ?? 0}:${location.colno ?? 0}`);
  const cause = readProperty(thrown, 'cause');
  if (cause !== undefined) lines.push(`Caused by: ${readString(cause, 'message') ?? safeToString(cause)}`);

  return {
    title: cap(title, MAX_TITLE_LENGTH),
    details: cap(lines.join('\n'), MAX_DETAILS_LENGTH),
    componentName: componentNameFromStack(stack),
    stack,
  };
}

/** What the browser tells us when a script from another origin fails: nothing but this text. */
const CROSS_ORIGIN_MESSAGE = 'Script error.';

export function describeErrorEvent(event: ErrorEvent): ForwardedError {
  const location: ErrorLocation = { filename: event.filename, lineno: event.lineno, colno: event.colno };
  if (event.error !== undefined && event.error !== null) return describeThrown(event.error, location);
  if (event.message === CROSS_ORIGIN_MESSAGE || !event.message) {
    return {
      title: CROSS_ORIGIN_MESSAGE,
      details: 'A script from another origin failed; the browser hides its message and stack.',
      componentName: null,
      stack: null,
    };
  }
  // An error event without an error object (older engines, synthetic events): only its message.
  return describeThrown({ name: 'Error', message: event.message }, location);
}

/** Allows `max` calls per `windowMs`, counted in fixed windows. */
export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now): () => boolean {
  let windowStart = -Infinity;
  let used = 0;
  return () => {
    const time = now();
    if (time - windowStart >= windowMs) {
      windowStart = time;
      used = 0;
    }
    if (used >= max) return false;
    used += 1;
    return true;
  };
}

export interface ErrorForwarderOptions {
  send: (error: ForwardedError) => void;
  now?: () => number;
}

/** Listens for uncaught errors and unhandled rejections on `win`; returns a function that stops it. */
export function forwardUncaughtErrors(win: Window, { send, now }: ErrorForwarderOptions): () => void {
  const allow = createRateLimiter(MAX_REPORTS_PER_WINDOW, REPORT_WINDOW_MS, now);

  const forward = (build: () => ForwardedError | null) => {
    try {
      const error = build();
      if (error && allow()) send(error);
    } catch (failure) {
      // Reporting must never add an uncaught error of its own; say so only while developing.
      if (isDevelopmentBuild()) console.warn('[frame] could not forward an error', failure);
    }
  };

  const onError = (event: ErrorEvent) =>
    forward(() => {
      // Only script errors: resource load failures (img, script tags) do not bubble to window, and a
      // synthetic Event without ErrorEvent fields has nothing to report.
      if (!('message' in event)) return null;
      if (isPaymentRequiredError(event.error) || isPaymentRequiredError(event.message)) return null;
      return describeErrorEvent(event);
    });
  const onRejection = (event: PromiseRejectionEvent) =>
    forward(() => {
      const reason: unknown = readProperty(event, 'reason');
      if (isPaymentRequiredError(reason)) return null;
      return describeThrown(reason);
    });

  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  return () => {
    win.removeEventListener('error', onError);
    win.removeEventListener('unhandledrejection', onRejection);
  };
}
