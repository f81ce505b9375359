import type { Page, Request } from '@playwright/test';

/** One request as the browser sent it: the headers are the ones that went over the wire. */
export interface SentRequest {
  url: string;
  method: string;
  resourceType: string;
  referer: string | null;
  authorization: string | null;
  /** True for the navigation that opened the page (its URL is what the test asked for). */
  isStart: boolean;
}

/**
 * Records every request of the page's browser context and every WebSocket of the page, with the headers Chromium really
 * sent (`allHeaders`, which include Referer and Authorization), so a test can prove where a secret
 * did and did not go.
 */
export interface RequestLog {
  /** Resolves with every request so far, in the order the browser made them. */
  settled(): Promise<SentRequest[]>;
  /** How many requests were made so far (an index into `settled()`). */
  count(): number;
  /**
   * Names the navigation that opens the page (its URL, or a test for it), so it can be told apart:
   * the first navigation request that matches is marked `isStart`.
   */
  markStart(start: string | ((url: string) => boolean)): void;
}

export function recordRequests(page: Page): RequestLog {
  const pending: Array<Promise<SentRequest>> = [];
  let isStartUrl: (url: string) => boolean = () => false;
  let startSeen = false;
  const record = async (request: Request, isStart: boolean): Promise<SentRequest> => {
    const headers = await request.allHeaders().catch(() => request.headers());
    return {
      url: request.url(),
      method: request.method(),
      resourceType: request.resourceType(),
      referer: headers.referer ?? null,
      authorization: headers.authorization ?? null,
      isStart,
    };
  };
  page.context().on('request', (request) => {
    const isStart = !startSeen && request.isNavigationRequest() && isStartUrl(request.url());
    if (isStart) startSeen = true;
    pending.push(record(request, isStart));
  });
  page.on('websocket', (socket) => {
    pending.push(
      Promise.resolve({
        url: socket.url(),
        method: 'GET',
        resourceType: 'websocket',
        referer: null,
        authorization: null,
        isStart: false,
      }),
    );
  });
  return {
    markStart(start) {
      isStartUrl = typeof start === 'string' ? (url) => url === start : start;
    },
    settled: () => Promise.all(pending),
    count: () => pending.length,
  };
}

/** Where in a request a secret showed up (URL, Referer, Authorization), for a readable failure. */
export function placesCarrying(
  requests: SentRequest[],
  secret: string,
  fields: Array<'url' | 'referer' | 'authorization'>,
): string[] {
  const found: string[] = [];
  for (const request of requests) {
    for (const field of fields) {
      const value = request[field];
      if (value && (value.includes(secret) || safeDecode(value).includes(secret))) {
        found.push(`${field} of ${request.method} ${request.url.slice(0, 120)}`);
      }
    }
  }
  return found;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
