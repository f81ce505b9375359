/**
 * A GET with the request target sent exactly as given: `fetch` and browsers would resolve `..`,
 * merge nothing but still normalise, and follow redirects; a host must be asked what a crafted link
 * really sends.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function rawGet(site: string, target: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(site);
  return new Promise((resolve, reject) => {
    const request = http.get({ host: hostname, port: Number(port), path: target }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

const OUT = path.resolve(__dirname, '../../out');
const EXPORT_FILES = ['index.html', 'ComingSoon.html', '404.html', '_not-found.html', 'robots.txt', 'icon.svg'];

/** Which file of `out/` a body is (hosts serve them byte for byte), or a short note of what it is. */
export function exportFileOf(body: string): string {
  for (const file of EXPORT_FILES) {
    if (body === readFileSync(path.join(OUT, file), 'utf8')) return file;
  }
  return body === '' ? '(empty)' : `(other: ${body.slice(0, 40)})`;
}

/**
 * Follows redirects as a browser does (Location against the current address), each hop sent raw;
 * stops at the first answer that is no redirect, or after `limit` hops (a loop).
 */
export async function followRaw(
  site: string,
  target: string,
  limit = 5,
): Promise<{ answer: RawAnswer; address: string; hops: number }> {
  let address = new URL(target, site).href;
  for (let hops = 0; ; hops += 1) {
    const url = new URL(address);
    const answer = await rawGet(url.origin, `${url.pathname}${url.search}`);
    const location = answer.headers.location;
    if (answer.status < 300 || answer.status >= 400 || !location || hops >= limit) return { answer, address, hops };
    address = new URL(location, address).href;
  }
}
