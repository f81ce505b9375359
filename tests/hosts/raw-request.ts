/**
 * A GET with the request target sent exactly as given: `fetch` and browsers would resolve `..`,
 * merge nothing but still normalise, and follow redirects; a host must be asked what a crafted link
 * really sends.
 */
import http from 'node:http';

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
