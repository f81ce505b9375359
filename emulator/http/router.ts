import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { HttpError, badRequest } from './errors';
import type { Reply } from './reply';

export interface RouteRequest {
  method: string;
  url: URL;
  /** Path parameters, already percent-decoded. */
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  raw: IncomingMessage;
}

export type RouteHandler = (request: RouteRequest) => Promise<Reply> | Reply;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

/**
 * A small segment router. Patterns look like `/api/apps/:appId/entities/:entity`. The raw path is
 * split on `/` before decoding, so an encoded slash (`%2F`) stays inside one parameter: socket rooms
 * such as `/agent-conversations/x` can travel in a path segment.
 */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: RouteHandler): void {
    this.routes.push({ method, segments: splitPath(pattern), handler });
  }

  /** Finds the handler; a path known under another method is a 405, anything else a 404. */
  match(method: string, rawPath: string): { handler: RouteHandler; params: Record<string, string> } {
    const segments = splitPath(rawPath);
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method) return { handler: route.handler, params };
      allowed.add(route.method);
    }
    if (allowed.size > 0) {
      throw new HttpError(405, `Method ${method} is not allowed on ${safePath(rawPath)}`, {
        code: 'method_not_allowed',
        extraData: { allowed: [...allowed].sort() },
      });
    }
    throw new HttpError(404, `No route for ${method} ${safePath(rawPath)}`, { code: 'route_not_found' });
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index] as string;
    const segment = actual[index] as string;
    if (expected.startsWith(':')) {
      params[expected.slice(1)] = decodeSegment(segment);
    } else if (expected !== segment) {
      return null;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`Malformed percent-encoding in path segment "${segment.slice(0, 80)}"`, 'malformed_path');
  }
}

/** Error messages echo the path; keep it short so a huge URL does not make a huge response. */
function safePath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}
