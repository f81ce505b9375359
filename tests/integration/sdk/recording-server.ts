/**
 * A real HTTP server on 127.0.0.1:0 that records every request and answers as each test says: the
 * way to check exact wire formats and the error paths the emulator has no reason to produce (a 500
 * without a body, a server that never answers).
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Answer {
  status: number;
  /** Objects are sent as JSON; strings as text/plain; undefined = empty body. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Decides the answer; returning "hang" never answers (the socket stays open until close). */
export type Responder = (request: RecordedRequest) => Answer | 'hang';

export interface RecordingServer {
  url: string;
  /** The underlying server, e.g. to attach a socket.io server to it. */
  httpServer: Server;
  requests: RecordedRequest[];
  respond(responder: Responder): void;
  /** The recorded body parsed as JSON. */
  jsonBody(index?: number): unknown;
  /** The recorded body parsed as multipart form data. */
  formBody(index?: number): Promise<FormData>;
  close(): Promise<void>;
}

const DEFAULT_ANSWER: Responder = () => ({ status: 200, body: { ok: true } });

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

// Browser clients under test (jsdom's XHR) enforce CORS; the server answers every origin, like the platform.
const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': '*',
};

function answerPreflight(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, HEAD',
    'Access-Control-Allow-Headers': request.headers['access-control-request-headers'] ?? '*',
  });
  response.end();
}

function send(response: ServerResponse, answer: Answer): void {
  const headers: Record<string, string> = { ...CORS_HEADERS, ...answer.headers };
  let payload: string | undefined;
  if (typeof answer.body === 'string') {
    headers['Content-Type'] ??= 'text/plain';
    payload = answer.body;
  } else if (answer.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    payload = JSON.stringify(answer.body);
  }
  response.writeHead(answer.status, headers);
  response.end(payload);
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  let responder: Responder = DEFAULT_ANSWER;
  const server = createServer((request, response) => {
    // socket.io (when attached) answers its own path; preflights are CORS plumbing, not calls.
    if (request.url?.startsWith('/ws-user-apps/')) return;
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      answerPreflight(request, response);
      return;
    }
    void readBody(request).then((body) => {
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      };
      requests.push(recorded);
      const answer = responder(recorded);
      if (answer !== 'hang') send(response, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const recorded = (index: number | undefined) => {
    const request = index === undefined ? requests[requests.length - 1] : requests[index];
    if (!request) throw new Error('No request was recorded');
    return request;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    httpServer: server,
    requests,
    respond(next) {
      responder = next;
    },
    jsonBody: (index) => JSON.parse(recorded(index).body.toString('utf8')) as unknown,
    formBody(index) {
      const request = recorded(index);
      return new Response(new Uint8Array(request.body), {
        headers: { 'content-type': String(request.headers['content-type']) },
      }).formData();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
