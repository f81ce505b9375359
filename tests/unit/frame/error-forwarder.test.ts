import {
  componentNameFromStack,
  createRateLimiter,
  describeErrorEvent,
  describeThrown,
  forwardUncaughtErrors,
  isPaymentRequiredError,
  MAX_DETAILS_LENGTH,
  MAX_REPORTS_PER_WINDOW,
  MAX_STACK_LENGTH,
  MAX_TITLE_LENGTH,
  REPORT_WINDOW_MS,
} from '@/lib/frame/error-forwarder';
import type { ForwardedError } from '@/lib/frame/messages';
import { PlatformError } from '@/lib/sdk';

/** A value whose every property read throws, like a hostile or revoked proxy. */
function throwingProxy(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
      getPrototypeOf() {
        throw new Error('trap');
      },
      ownKeys() {
        throw new Error('trap');
      },
    },
  );
}

describe('isPaymentRequiredError', () => {
  it('recognises our own PlatformError with status 402', () => {
    const error = new PlatformError('Payment required', { status: 402 });
    expect(isPaymentRequiredError(error)).toBe(true);
    expect(isPaymentRequiredError(new PlatformError('Forbidden', { status: 403 }))).toBe(false);
  });

  it.each([
    ['a status property', { status: 402 }],
    ['a statusCode property (ofetch)', Object.assign(new Error('x'), { statusCode: 402 })],
    ['response.status (axios style)', Object.assign(new Error('x'), { response: { status: 402 } })],
    ['an axios-style message', new Error('Request failed with status code 402')],
    ['an ofetch-style message', new Error('[GET] "http://x/api": 402 Payment Required')],
    ['a 402 cause', new Error('wrapped', { cause: { status: 402 } })],
    ['a bare message string', 'Request failed with status code 402'],
  ])('recognises a raw HTTP 402 by %s', (_label, value) => {
    expect(isPaymentRequiredError(value)).toBe(true);
  });

  it.each([
    ['another status', { status: 500 }],
    ['a string status', { status: '402' }],
    ['a different number in the message', new Error('status code 4021')],
    ['null', null],
    ['a number', 402],
    ['a throwing proxy', throwingProxy()],
  ])('is false for %s', (_label, value) => {
    expect(isPaymentRequiredError(value)).toBe(false);
  });

  it('stops following causes after a few levels (no loop on a cyclic cause)', () => {
    const cyclic: { cause?: unknown } = {};
    cyclic.cause = cyclic;
    expect(isPaymentRequiredError(cyclic)).toBe(false);
  });
});

describe('describeThrown', () => {
  it('describes an Error with its stack and the component it was thrown in', () => {
    const error = new TypeError('x is undefined');
    error.stack =
      'TypeError: x is undefined\n    at Array.map (<anonymous>)\n    at HeroBanner (http://site/_next/page.js:1:2)';
    expect(describeThrown(error, { filename: 'http://site/_next/page.js', lineno: 1, colno: 2 })).toEqual({
      title: 'x is undefined',
      details: 'TypeError: x is undefined\nat http://site/_next/page.js:1:2',
      componentName: 'HeroBanner',
      stack: error.stack,
    });
  });

  it('handles an error without a stack (the reference forwarder threw here)', () => {
    const error = new Error('no stack');
    error.stack = undefined;
    expect(describeThrown(error)).toEqual({
      title: 'no stack',
      details: 'Error: no stack',
      componentName: null,
      stack: null,
    });
  });

  it.each([
    ['a string', 'plain failure', 'plain failure'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a number', 42, '42'],
    ['a symbol', Symbol('why'), 'Symbol(why)'],
    ['a plain object', { code: 'E_FAIL' }, '{"code":"E_FAIL"}'],
    ['an empty object', {}, '[object Object]'],
    ['an object with a BigInt', { big: BigInt(1) }, '[object Object]'],
    ['a null-prototype object', Object.create(null) as object, '[object Object]'],
  ])('describes %s that was thrown', (_label, value, title) => {
    const described = describeThrown(value);
    expect(described.title).toBe(title);
    expect(described.details).toBe(`Thrown value: ${title}`);
    expect(described.stack).toBeNull();
  });

  it('survives a value whose every property read throws', () => {
    expect(() => describeThrown(throwingProxy())).not.toThrow();
    expect(describeThrown(throwingProxy()).title).toEqual(expect.any(String));
  });

  it('mentions the cause and caps every field', () => {
    const error = new Error('m'.repeat(MAX_TITLE_LENGTH * 2), { cause: new Error('root cause') });
    error.stack = 's'.repeat(MAX_STACK_LENGTH * 2);
    const described = describeThrown(error);
    expect(described.title).toHaveLength(MAX_TITLE_LENGTH);
    expect(described.details.length).toBeLessThanOrEqual(MAX_DETAILS_LENGTH);
    expect(described.stack).toHaveLength(MAX_STACK_LENGTH);
    expect(describeThrown(new Error('outer', { cause: new Error('root cause') })).details).toContain(
      'Caused by: root cause',
    );
  });
});

describe('componentNameFromStack', () => {
  it('reads V8 and Firefox frames and skips built-ins', () => {
    expect(componentNameFromStack('Error\n    at Object.parse (x)\n    at async Page (y:1:1)')).toBe('Page');
    expect(componentNameFromStack('render@x:1:1\nComingSoon@y:2:2')).toBe('ComingSoon');
    expect(componentNameFromStack('Error\n    at helper (x:1:1)\n    at new Promise (<anonymous>)')).toBeNull();
    expect(componentNameFromStack(null)).toBeNull();
  });
});

describe('describeErrorEvent', () => {
  it('describes the browser\'s cross-origin "Script error." without an error object', () => {
    const event = new ErrorEvent('error', { message: 'Script error.', error: null });
    expect(describeErrorEvent(event)).toEqual({
      title: 'Script error.',
      details: expect.stringContaining('another origin'),
      componentName: null,
      stack: null,
    });
  });

  it('uses the message when an event has no error object', () => {
    const event = new ErrorEvent('error', { message: 'Uncaught oops', filename: 'a.js', lineno: 3, colno: 4 });
    expect(describeErrorEvent(event)).toMatchObject({
      title: 'Uncaught oops',
      details: 'Error: Uncaught oops\nat a.js:3:4',
    });
  });
});

describe('createRateLimiter', () => {
  it('allows max calls per window', () => {
    let time = 0;
    const allow = createRateLimiter(2, 1000, () => time);
    expect([allow(), allow(), allow()]).toEqual([true, true, false]);
    time = 1000;
    expect(allow()).toBe(true);
  });
});

describe('forwardUncaughtErrors', () => {
  let sent: ForwardedError[];
  let stop: () => void;
  let time: number;

  beforeEach(() => {
    sent = [];
    time = 0;
    stop = forwardUncaughtErrors(window, { send: (error) => sent.push(error), now: () => time });
  });
  afterEach(() => stop());

  function rejection(reason: unknown): Event {
    const event = new Event('unhandledrejection');
    Object.defineProperty(event, 'reason', { value: reason });
    return event;
  }

  it('forwards uncaught errors and unhandled rejections', () => {
    window.dispatchEvent(new ErrorEvent('error', { message: 'Boom', error: new Error('Boom') }));
    window.dispatchEvent(rejection(new RangeError('bad range')));
    window.dispatchEvent(rejection('just a string'));
    expect(sent.map((error) => error.title)).toEqual(['Boom', 'bad range', 'just a string']);
  });

  it('does not forward HTTP 402, on our error class or a raw HTTP error', () => {
    window.dispatchEvent(rejection(new PlatformError('Payment required', { status: 402 })));
    window.dispatchEvent(rejection(Object.assign(new Error('x'), { response: { status: 402 } })));
    window.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught Error: Request failed with status code 402' }));
    window.dispatchEvent(rejection(new PlatformError('Server error', { status: 500 })));
    expect(sent.map((error) => error.title)).toEqual(['Server error']);
  });

  it('never throws out of its handlers, whatever was thrown', () => {
    const values: unknown[] = [throwingProxy(), null, undefined, Symbol('s'), Object.create(null), [1, 2]];
    for (const value of values) {
      expect(() => window.dispatchEvent(rejection(value))).not.toThrow();
      expect(() => window.dispatchEvent(new ErrorEvent('error', { message: 'x', error: value }))).not.toThrow();
    }
    expect(sent).toHaveLength(values.length * 2);
  });

  it('ignores events that are not script errors', () => {
    window.dispatchEvent(new Event('error'));
    expect(sent).toEqual([]);
  });

  it('limits a flood of errors to a few per window', () => {
    for (let index = 0; index < MAX_REPORTS_PER_WINDOW * 3; index += 1) window.dispatchEvent(rejection(`e${index}`));
    expect(sent).toHaveLength(MAX_REPORTS_PER_WINDOW);
    time = REPORT_WINDOW_MS;
    window.dispatchEvent(rejection('later'));
    expect(sent.at(-1)?.title).toBe('later');
  });

  it('stops listening when stopped', () => {
    stop();
    window.dispatchEvent(rejection('after stop'));
    expect(sent).toEqual([]);
  });
});
