import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

import type { QueryClock } from '../query/budget';
import { HttpError } from './errors';
import type { Reply } from './reply';

export interface RouteRequest {
  method: string;
  url: URL;
  /** Path parameters, already percent-decoded. A trailing `*` pattern puts the rest under `*`. */
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  raw: IncomingMessage;
  /**
   * The clock of this request's queries (query/budget.ts). The handler starts on it; work that
   * queries after an await runs on it again with `clock.run`.
   */
  clock: QueryClock;
}

export type RouteHandler = (request: RouteRequest) => Promise<Reply> | Reply;

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Routing by find-my-way (a radix-tree router, the one Fastify uses). Patterns look like
 * `/api/apps/:appId/entities/:entity`; a literal segment wins over a parameter whatever the order
 * of registration. It matches the canonical path (http/canonical-path.ts), the one the gates read,
 * where an encoded slash (`%2F`) stays inside one parameter: socket rooms such as
 * `/agent-conversations/x` can travel in a path segment. What find-my-way does not do is added here:
 * 405 with the allowed methods.
 */
export class Router {
  private readonly tree = FindMyWay({
    ignoreTrailingSlash: true,
    ignoreDuplicateSlashes: true,
    caseSensitive: true,
    maxParamLength: 2000,
  });

  add(method: string, pattern: string, handler: RouteHandler): void {
    this.tree.on(method as HTTPMethod, pattern, () => undefined, { handler });
  }

  /** Finds the handler; a path known under another method is a 405, anything else a 404. */
  match(method: string, rawPath: string): { handler: RouteHandler; params: Record<string, string> } {
    const found = METHODS.includes(method as HTTPMethod) ? this.tree.find(method as HTTPMethod, rawPath) : null;
    if (found) {
      const { handler } = found.store as { handler: RouteHandler };
      return { handler, params: copyParams(found.params) };
    }
    const allowed = METHODS.filter((other) => other !== method && this.tree.find(other, rawPath) !== null);
    if (allowed.length > 0) {
      throw new HttpError(405, `Method ${method} is not allowed on ${safePath(rawPath)}`, {
        code: 'method_not_allowed',
        extraData: { allowed: [...allowed].sort() },
      });
    }
    throw new HttpError(404, `No route for ${method} ${safePath(rawPath)}`, { code: 'route_not_found' });
  }
}

/** Params into a null-prototype object: their names are ours, but nothing is inherited either. */
function copyParams(params: Record<string, string | undefined>): Record<string, string> {
  const copy = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(params)) if (value !== undefined) copy[name] = value;
  return copy;
}

/** Error messages echo the path; keep it short so a huge URL does not make a huge response. */
function safePath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}
