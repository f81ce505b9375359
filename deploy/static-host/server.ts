import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

import { chooseEncoding, type ContentEncoding } from './accept-encoding';
import { contentTypeOf, isCompressible } from './content';
import { loadHostHeaders } from './host-headers';
import { answerRequest } from './html-handling';
import { requestUrlOf } from './request-url';

export interface StaticServerOptions {
  /** The folder to serve (a Next.js static export). */
  root: string;
}

/** What Cloudflare Pages sends on every 404, whatever `_headers` says. */
const NOT_FOUND_CACHING = 'no-store';

interface Encoded {
  body: Buffer;
  encoding: ContentEncoding | null;
}

/** Compresses like a CDN would; results are cached per file version. */
function createEncoder() {
  const cache = new Map<string, Buffer>();
  return (key: string, raw: Buffer, contentType: string, accept: string): Encoded => {
    if (!isCompressible(contentType) || raw.length < 512) return { body: raw, encoding: null };
    const encoding = chooseEncoding(accept);
    if (!encoding) return { body: raw, encoding: null };
    const cacheKey = `${encoding}:${key}`;
    let body = cache.get(cacheKey);
    if (!body) {
      body =
        encoding === 'br'
          ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } })
          : gzipSync(raw, { level: 9 });
      cache.set(cacheKey, body);
    }
    return { body, encoding };
  };
}

export function createStaticServer({ root }: StaticServerOptions): Server {
  const absoluteRoot = path.resolve(root);
  const headersFor = loadHostHeaders(absoluteRoot);
  const encode = createEncoder();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed');
      return;
    }
    const url = requestUrlOf(req.url);
    const answer = await answerRequest(absoluteRoot, url);
    // Rules match the path as requested, as on Cloudflare Pages: the site-wide headers reach every
    // answer, redirects and 404s included.
    if (answer && 'redirect' in answer) {
      const headers = { ...headersFor.redirect(url.pathname), Location: answer.redirect, 'Content-Length': '0' };
      res.writeHead(answer.status, headers).end();
      return;
    }
    const hostHeaders = headersFor.file(url.pathname);
    if (!answer) {
      res.writeHead(404, { ...hostHeaders, 'Cache-Control': NOT_FOUND_CACHING, 'Content-Type': 'text/plain' });
      res.end('Not Found');
      return;
    }
    const { file, status } = answer;
    const info = await stat(file);
    const etag = `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`;
    const contentType = contentTypeOf(file);
    const headers: Record<string, string> = {
      'Content-Type': contentType,
      ETag: etag,
      Vary: 'Accept-Encoding',
      ...hostHeaders,
    };
    // A missing page is never kept by a cache: the next deploy may add it.
    if (status === 404) headers['Cache-Control'] = NOT_FOUND_CACHING;
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const raw = await readFile(file);
    const { body, encoding } = encode(
      `${file}:${etag}`,
      raw,
      contentType,
      String(req.headers['accept-encoding'] ?? ''),
    );
    if (encoding) headers['Content-Encoding'] = encoding;
    headers['Content-Length'] = String(body.length);
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A missing 404.html or a vanished file: answer plainly rather than hang the request.
      console.error('[serve]', error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  });
}
