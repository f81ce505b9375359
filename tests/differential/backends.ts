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
}

export interface Backend {
  name: 'vendor' | 'ours';
  url: string;
  /** `bare`: without the `X-App-Id` header the SDK adds (as a webhook or curl calls). */
  request(actor: Actor, method: string, apiPath: string, body?: unknown, bare?: boolean): Promise<Answer>;
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

async function send(
  url: string,
  token: string | null,
  method: string,
  apiPath: string,
  body?: unknown,
  bare = false,
): Promise<Answer> {
  const headers: Record<string, string> = bare ? {} : { 'X-App-Id': APP_ID };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${url}/api/apps/${APP_ID}${apiPath}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: response.status, body: parsed };
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

async function vendorUserToken(server: VendorDevServer): Promise<string> {
  const register = await send(server.url, null, 'POST', '/auth/register', {
    email: USER.email,
    password: USER.password,
  });
  if (register.status !== 200) throw new Error(`vendor register: ${JSON.stringify(register)}`);
  // Offline, the verification code is printed instead of mailed.
  let code: string | undefined;
  for (let attempt = 0; attempt < 50 && !code; attempt += 1) {
    code = /verification code: (\d{6})/.exec(server.output())?.[1];
    if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
    return backendAt('vendor', server.url, tokens, () => server.stop());
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
  return backendAt('ours', emulator.url, tokens, () => emulator.close());
}

/** One backend as the rows see it: requests and subscriptions as an actor, whichever server answers. */
function backendAt(
  name: Backend['name'],
  url: string,
  tokens: Record<Actor, string | null>,
  stop: () => Promise<void>,
): Backend {
  return {
    name,
    url,
    request: (actor, method, apiPath, body, bare) => send(url, tokens[actor], method, apiPath, body, bare),
    subscribe: (actor, room) => subscriber(url, tokens[actor])(actor, room),
    token: (actor) => tokens[actor],
    stop,
  };
}
