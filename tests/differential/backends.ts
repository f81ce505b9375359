/**
 * The two backends of the comparison, started on the same project: the vendor's own local backend
 * (`base44 dev` of the pinned CLI, offline, functions on Deno) and our emulator. Each gives the same
 * four callers (anonymous, the admin, a user, the service role) a token of its own kind.
 */
import { createHmac } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';

import { startEmulator } from '@/emulator/start/server';
import { startVendorDevServer, type VendorDevServer } from '@/support/base44-cli/dev-server';
import { loginToken } from '@/tests/support/emulator';

import { ADMIN, APP_ID, ourSeed, SERVICE_TOKEN, USER } from './project';

/** `forger`: a token naming the user, signed with a key neither backend knows. */
export type Actor = 'anonymous' | 'admin' | 'user' | 'service' | 'forger';

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** One request in every shape the rows send: JSON, raw text, a multipart file, extra headers, any URL. */
export interface Exchange {
  method: string;
  /** An API path under `/api/apps/{app}`, or an absolute URL the backend handed out (fetched as a browser would). */
  path: string;
  body?: unknown;
  /** A body sent as is, with its content type. */
  raw?: { text: string; type: string };
  /** A multipart upload: one file part named `file`. */
  upload?: { name: string; type: string; content: string };
  /** Request headers; `{token}` in a value is the actor's token, and an `Authorization` given replaces the actor's. */
  headers?: Record<string, string>;
  /** Without the `X-App-Id` header the SDK adds (as a webhook or curl calls). */
  bare?: boolean;
}

export interface Backend {
  name: 'vendor' | 'ours';
  url: string;
  /** `bare`: without the `X-App-Id` header the SDK adds (as a webhook or curl calls). */
  request(actor: Actor, method: string, apiPath: string, body?: unknown, bare?: boolean): Promise<Answer>;
  /** The same as `request`, in every shape a row may send. */
  exchange(actor: Actor, exchange: Exchange): Promise<Answer>;
  /** The last verification code this backend sent to `email` (the vendor prints it, ours mails it). */
  latestCode(email: string): Promise<string>;
  /** A socket.io client in the platform's shape, joined to `room` once connected. */
  subscribe(actor: Actor, room: string): Promise<{ events: unknown[]; close(): void }>;
  /** The actor's token on this backend (for an SDK client of its own). */
  token(actor: Actor): string | null;
  stop(): Promise<void>;
}

const SOCKET_PATH = '/ws-user-apps/socket.io/';

function base64url(value: string): string {
  return Buffer.from(value).toString('base64url');
}

/**
 * The vendor backend's service role: a token whose subject is its service account. It signs its
 * tokens with a fixed development secret (and only decodes them, never verifies), so the suite makes
 * one the way its own function proxy does.
 */
function jwt(claims: object, secret: string): string {
  const head = `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

const vendorServiceToken = () => jwt({ sub: 'server@server.com' }, 'LOCAL_DEV_SECRET');
const forgedToken = () => jwt({ sub: USER.email, email: USER.email }, 'not-the-backend-secret');

function requestBody(exchange: Exchange): BodyInit | undefined {
  if (exchange.upload) {
    const form = new FormData();
    const { name, type, content } = exchange.upload;
    form.append('file', new File([content], name, { type }));
    return form;
  }
  if (exchange.raw) return exchange.raw.text;
  return exchange.body === undefined ? undefined : JSON.stringify(exchange.body);
}

function requestHeaders(token: string | null, exchange: Exchange, absolute: boolean): Record<string, string> {
  const headers: Record<string, string> = exchange.bare || absolute ? {} : { 'X-App-Id': APP_ID };
  if (token && !absolute) headers.Authorization = `Bearer ${token}`;
  if (exchange.raw) headers['Content-Type'] = exchange.raw.type;
  else if (exchange.body !== undefined && !exchange.upload) headers['Content-Type'] = 'application/json';
  for (const [name, value] of Object.entries(exchange.headers ?? {})) {
    headers[name] = value.replace('{token}', token ?? '');
  }
  return headers;
}

async function exchangeWith(url: string, token: string | null, exchange: Exchange): Promise<Answer> {
  const absolute = /^https?:\/\//.test(exchange.path);
  const body = requestBody(exchange);
  const response = await fetch(absolute ? exchange.path : `${url}/api/apps/${APP_ID}${exchange.path}`, {
    method: exchange.method,
    headers: requestHeaders(token, exchange, absolute),
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

function send(url: string, token: string | null, method: string, path: string, body?: unknown, bare = false) {
  return exchangeWith(url, token, { method, path, body, bare });
}

function subscriber(url: string, token: string | null) {
  return (_actor: Actor, room: string) =>
    new Promise<{ events: unknown[]; close(): void }>((resolve, reject) => {
      const events: unknown[] = [];
      const socket: Socket = io(url, {
        path: SOCKET_PATH,
        transports: ['websocket'],
        query: { app_id: APP_ID, ...(token ? { token } : {}) },
        reconnection: false,
      });
      socket.on('update_model', (message: { data?: string }) => {
        events.push(typeof message.data === 'string' ? JSON.parse(message.data) : message);
      });
      socket.once('connect_error', reject);
      socket.once('connect', () => {
        socket.emit('join', room);
        // A join has no acknowledgement in the platform's protocol: give it a moment to land.
        setTimeout(() => resolve({ events, close: () => socket.close() }), 200);
      });
    });
}

/**
 * Offline, the vendor prints each verification code instead of mailing it, without the address: the
 * last one printed after `seen` characters of output is the code of the registration just made.
 */
async function printedCode(server: VendorDevServer, seen: number): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const codes = [
      ...server
        .output()
        .slice(seen)
        .matchAll(/verification code: (\d{6})/g),
    ];
    const code = codes.at(-1)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('base44 dev printed no verification code');
}

async function vendorUserToken(server: VendorDevServer): Promise<string> {
  const register = await send(server.url, null, 'POST', '/auth/register', {
    email: USER.email,
    password: USER.password,
  });
  if (register.status !== 200) throw new Error(`vendor register: ${JSON.stringify(register)}`);
  const code = await printedCode(server, 0);
  const verified = await send(server.url, null, 'POST', '/auth/verify-otp', { email: USER.email, otp_code: code });
  const token = (verified.body as { access_token?: string }).access_token;
  if (!token) throw new Error(`vendor verify-otp: ${JSON.stringify(verified)}`);
  return token;
}

export async function startVendor(projectDir: string): Promise<Backend> {
  const server = await startVendorDevServer({
    projectDir,
    env: { B44_DEV_FUNCTIONS_RUNTIME: 'deno' },
  });
  try {
    // The admin of the login file signs in with any password (a documented deviation).
    const admin = await send(server.url, null, 'POST', '/auth/login', { email: ADMIN.email, password: 'anything' });
    const tokens: Record<Actor, string | null> = {
      anonymous: null,
      admin: (admin.body as { access_token: string }).access_token,
      user: await vendorUserToken(server),
      service: vendorServiceToken(),
      forger: forgedToken(),
    };
    // Codes printed before a row asks are older registrations': each ask starts where the last ended.
    let seen = server.output().length;
    const latestCode = async () => {
      const code = await printedCode(server, seen);
      seen = server.output().length;
      return code;
    };
    return backendAt('vendor', server.url, tokens, latestCode, () => server.stop());
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function startOurs(projectDir: string): Promise<Backend> {
  const emulator = await startEmulator({
    port: 0,
    quiet: true,
    seed: ourSeed(),
    projectDir,
  });
  const tokens: Record<Actor, string | null> = {
    anonymous: null,
    admin: await loginToken(emulator, APP_ID, ADMIN.email, 'admin-password-1'),
    user: await loginToken(emulator, APP_ID, USER.email, USER.password),
    service: SERVICE_TOKEN,
    forger: forgedToken(),
  };
  const latestCode = async (email: string) => {
    const mail = emulator
      .outbox()
      .filter((sent) => sent.to === email)
      .at(-1);
    const code = /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1];
    if (!code) throw new Error(`the emulator mailed no code to ${email}`);
    return code;
  };
  return backendAt('ours', emulator.url, tokens, latestCode, () => emulator.close());
}

/** One backend as the rows see it: requests and subscriptions as an actor, whichever server answers. */
function backendAt(
  name: Backend['name'],
  url: string,
  tokens: Record<Actor, string | null>,
  latestCode: (email: string) => Promise<string>,
  stop: () => Promise<void>,
): Backend {
  return {
    name,
    url,
    request: (actor, method, apiPath, body, bare) => send(url, tokens[actor], method, apiPath, body, bare),
    exchange: (actor, exchange) => exchangeWith(url, tokens[actor], exchange),
    latestCode,
    subscribe: (actor, room) => subscriber(url, tokens[actor])(actor, room),
    token: (actor) => tokens[actor],
    stop,
  };
}
