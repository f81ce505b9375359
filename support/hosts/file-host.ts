/**
 * What the header-less test hosts (spa-only.ts, not-found-only.ts) share: a plain node:http server
 * that answers GET and HEAD from a folder with the file, status and redirect a host's own rules pick,
 * and with no headers beyond `Content-Type`, `Content-Length` and `Location`: no security headers, no
 * caching rules, no `_headers` file read (such hosts serve it as a file like any other).
 *
 * The request path is read as deploy/static-host reads it (`pathOfRequestTarget`: `//x/y` is a path,
 * never the host `x`) and split into decoded segments by its `safeSegments` (`..`, `.`, an encoded
 * `/` or `\`, NUL and bad escapes name no file), so no path reaches outside the folder.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { contentTypeOf } from '../../deploy/static-host/content';
import { pathOfRequestTarget, safeSegments } from '../../deploy/static-host/resolve';
import type { RunningHost } from './types';

/** What a host answers for a path: a file with a status, or a redirect. */
export type HostAnswer = { file: string; status: 200 | 404 } | { redirect: string; status: 301 | 302 };

/** A request path as a host's rules see it. */
export interface RequestPath {
  /** The path as sent (before the query), e.g. `/ComingSoon/`. */
  raw: string;
  /** Its decoded, non-empty segments; null when it cannot name a file (see safeSegments). */
  segments: string[] | null;
  /** The query string with its `?`, or ''. */
  search: string;
}

export type HostRules = (root: string, request: RequestPath) => Promise<HostAnswer>;

/** The absolute path of a regular file under `root`, or null (missing, a folder, or outside root). */
export async function fileUnder(root: string, segments: readonly string[]): Promise<string | null> {
  const file = path.join(root, ...segments);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}

function requestPath(target: string | undefined): RequestPath {
  const raw = pathOfRequestTarget(target);
  const queryAt = (target ?? '').indexOf('?');
  const search = queryAt >= 0 ? ((target ?? '').slice(queryAt).split('#', 1)[0] ?? '') : '';
  return { raw, segments: safeSegments(raw), search };
}

async function answer(
  root: string,
  rules: HostRules,
  hostHeaders: Record<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method Not Allowed');
    return;
  }
  const decision = await rules(root, requestPath(req.url));
  if ('redirect' in decision) {
    res.writeHead(decision.status, { ...hostHeaders, Location: decision.redirect, 'Content-Length': '0' }).end();
    return;
  }
  const body = await readFile(decision.file);
  res.writeHead(decision.status, {
    ...hostHeaders,
    'Content-Type': contentTypeOf(decision.file),
    'Content-Length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Serves `outDir` on 127.0.0.1:`port` (0 or omitted: a free port) by `rules`, with `hostHeaders` (the
 * host's own, never ours) on every answer.
 */
export async function startFileHost(
  name: string,
  options: { outDir: string; port?: number },
  rules: HostRules,
  hostHeaders: Record<string, string> = {},
): Promise<RunningHost> {
  const root = path.resolve(options.outDir);
  const server = createServer((req, res) => {
    answer(root, rules, hostHeaders, req, res).catch((error: unknown) => {
      console.error(`[${name}]`, error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  return {
    name,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
