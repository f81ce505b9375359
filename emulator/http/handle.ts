import type { IncomingMessage, ServerResponse } from 'node:http';

import { QueryClock } from '../query/budget';
import { drainRequest } from './body';
import { canonicalPath, parseRequestTarget } from './canonical-path';
import { corsHeadersFor, preflightHeaders, type OriginPolicy } from './cors';
import { errorReply } from './errors';
import type { LocalAddresses } from './local-access';
import type { Reply } from './reply';
import type { Router } from './router';

/** One HTTP exchange: Host, CORS, routing, the error body, optional latency, writing the answer. */

export interface HandleOptions {
  router: Router;
  corsOrigins: OriginPolicy;
  addresses: LocalAddresses;
  latencyMs: number;
  /** How long one request's queries may run (query/budget.ts). */
  queryBudgetMs: number;
  logError: (error: unknown) => void;
}

/** Gates read the canonical segments, the same path the router matches (see canonical-path.ts). */
function isApiPath(segments: readonly string[]): boolean {
  return segments[0] === 'api';
}

function isEmulatorToolPath(segments: readonly string[]): boolean {
  return segments[0] === 'api' && segments[1] === '_emulator';
}

async function route(request: IncomingMessage, options: HandleOptions, cors: Record<string, string>): Promise<Reply> {
  const clock = new QueryClock(options.queryBudgetMs);
  const method = request.method ?? 'GET';
  options.addresses.checkHost(request.headers.host);
  // The host is irrelevant to routing; a fixed base keeps a spoofed Host header out of the URL.
  const url = parseRequestTarget(request.url);
  const { segments, path } = canonicalPath(url.pathname);
  if (isEmulatorToolPath(segments)) options.addresses.checkLocalTool(request.socket.remoteAddress, request.headers);
  if (isApiPath(segments)) {
    const origin = request.headers.origin;
    if (method === 'OPTIONS') return { status: 204, headers: preflightHeaders(origin, options.corsOrigins) };
    Object.assign(cors, corsHeadersFor(origin, options.corsOrigins));
  }
  const { handler, params } = options.router.match(method, path);
  // The handler's start runs on the request's clock; what it queries after an await runs on it again.
  return clock.run(() => handler({ method, url, params, headers: request.headers, raw: request, clock }));
}

export async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  options: HandleOptions,
): Promise<void> {
  const cors: Record<string, string> = {};
  let reply: Reply;
  try {
    reply = await route(request, options, cors);
  } catch (error) {
    reply = errorReply(error, options.logError);
  }
  await drainRequest(request);
  if (options.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
  if (response.destroyed) return;
  response.writeHead(reply.status, { ...reply.headers, ...cors });
  response.end(reply.body);
}
