/**
 * Runs one row of the table with one client and records what the platform saw and what the caller
 * got, normalised so that two clients doing the same thing produce equal observations.
 */
import type { Base44Client } from '@base44/sdk';

import type { Answer, RecordedRequest } from '@/tests/integration/sdk/recording-server';
import { WAIT_LIMIT_MS } from '@/tests/support/waits';

import type { FakeBrowser } from './fake-browser';
import type { ActorSocketLog, Handshake, RecordingPlatform, SocketEvent } from './platform';

/** The options both clients understand under the same names. */
export interface SharedConfig {
  serverUrl?: string;
  appId: string;
  token?: string;
  serviceToken?: string;
  functionsVersion?: string;
  headers?: Record<string, string>;
  appBaseUrl?: string;
  requiresAuth?: boolean;
  analytics?: { enabled: boolean };
  options?: { onError?: (error: Error) => void };
}

/**
 * What a row calls: both clients are driven through the reference's declared surface, plus the
 * methods its client object has at run time without declaring them (found by the surface walk).
 */
/**
 * Any function name: once `base44 types generate` has run, the reference types `invoke` by the
 * project's own functions (base44/functions), while the rows call made-up ones on a recording server.
 */
type AnyFunctions = Omit<Base44Client['functions'], 'invoke'> & {
  invoke(functionName: string, data?: Record<string, unknown>): Promise<{ data: unknown; status: number }>;
};

export type ConformanceClient = Omit<Base44Client, 'functions' | 'asServiceRole'> & {
  functions: AnyFunctions;
  asServiceRole: Omit<Base44Client['asServiceRole'], 'functions'> & { functions: AnyFunctions };
  auth: { hasToken(): boolean };
  analytics: { cleanup(): void };
  users: { inviteUser(userEmail: string, role: 'user' | 'admin'): Promise<unknown> };
};
export type ClientFactory = (config: SharedConfig) => ConformanceClient;

/** How a row gets a client: `createClient(config)` or `createClientFromRequest(request)`. */
export interface ClientMaker {
  create: ClientFactory;
  fromRequest(request: Request): ConformanceClient;
}

export interface RunTools {
  /** Waits until the platform saw a join (or leave) of `room`. */
  waitForSocket(event: 'join' | 'leave', room: string): Promise<void>;
  /** Pushes an `update_model` into a room. */
  push(room: string, data: unknown): Promise<void>;
  /** Waits until `check` holds (polling), for effects that happen after a call returns. */
  until(check: () => boolean, what: string): Promise<void>;
  /** Requests recorded so far in this run. */
  requestCount(): number;
  /** Browser rows: the last popup posts `data` to the page from `origin`. */
  postFromPopup(data: unknown, origin: string): void;
  /** Browser rows: whether the page opened a popup. */
  popupOpened(): boolean;
  /** Browser rows: how many navigations the page made so far. */
  navigationCount(): number;
  /** The platform: actor sockets and their addresses. */
  platform: RecordingPlatform;
}

export interface Row {
  name: string;
  /** Method paths of the reference surface this row exercises (`entities.*.list`, `asServiceRole.sso.getIdToken`). */
  covers: readonly string[];
  /** "browser": runs in the stubbed browser (browser.test.ts); default: plain Node (node.test.ts). */
  env?: 'node' | 'browser';
  config?: Partial<SharedConfig>;
  /** Builds the client with `createClientFromRequest` from this request instead of `createClient`. */
  fromRequest?: (serverUrl: string) => Request;
  /** Browser rows only: storage before the client is created. */
  storage?: Record<string, string>;
  /** Browser rows only: the page address. */
  pageUrl?: string;
  /** Browser rows only: the page runs inside a frame (the editor's preview). */
  framed?: boolean;
  /** The platform's answer to each request of this row; default 200 `{ ok: true }`. */
  answer?: (request: RecordedRequest) => Answer;
  run(client: ConformanceClient, tools: RunTools): Promise<unknown>;
  /** Reduces a result to what is comparable (e.g. a raw response to status and data). */
  project?: (result: unknown) => unknown;
  /** Folds away values that differ per run for both clients alike (timestamps, generated ids). */
  normalise?: (observation: Observation) => Observation;
  /** A documented difference: ours must equal `adjust(reference observation)` exactly. */
  deviation?: { id: string; adjust(reference: Observation): Observation };
}

export interface WireRequest {
  method: string;
  /** Each path segment decoded on its own, so `a%2Fb` (one segment) differs from `a/b` (two). */
  path: string[];
  query: [string, string][];
  headers: Record<string, string>;
  body: unknown;
}

export interface ErrorShape {
  name: string;
  message: string;
  status: unknown;
  code: unknown;
  data: unknown;
}

export type Outcome = { result: unknown } | { error: ErrorShape };

export interface Observation {
  requests: WireRequest[];
  outcome: Outcome;
  handshakes: Handshake[];
  socketEvents: SocketEvent[];
  actorSockets: ActorSocketLog[];
  navigations: string[];
  storage: Record<string, string>;
}

/** Headers whose value is part of the contract; the rest (user agent, length...) are transport detail. */
const CONTRACT_HEADERS = [
  'accept',
  'authorization',
  'base44-functions-version',
  'base44-state',
  'content-type',
  'on-behalf-of',
  'x-app-id',
  'x-base44-anonymous-id',
  'x-data-env',
  'x-origin-url',
  'x-trace',
];

async function normaliseBody(platform: RecordingPlatform, index: number, request: RecordedRequest): Promise<unknown> {
  const type = String(request.headers['content-type'] ?? '');
  if (type.startsWith('multipart/form-data')) {
    const form = await platform.http.formBody(index);
    const parts: unknown[] = [];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') parts.push({ name, value });
      else parts.push({ name, fileName: value.name, type: value.type, value: await value.text() });
    }
    return { multipart: parts };
  }
  const text = request.body.toString('utf8');
  if (text === '') return undefined;
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { text };
  }
}

async function normaliseRequest(
  platform: RecordingPlatform,
  index: number,
  request: RecordedRequest,
  browser: boolean,
) {
  const url = new URL(request.url, 'http://platform.invalid');
  const headers: Record<string, string> = {};
  for (const name of CONTRACT_HEADERS) {
    const value = request.headers[name];
    if (typeof value !== 'string') continue;
    headers[name] = name === 'content-type' ? (value.split(';')[0] ?? '').trim() : value;
  }
  // Outside a browser both clients make up a per-process visitor id; only its presence is comparable.
  if (!browser && headers['x-base44-anonymous-id']) headers['x-base44-anonymous-id'] = '<per-process id>';
  return {
    method: request.method,
    path: url.pathname.split('/').slice(1).map(decodeURIComponent),
    query: [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b)),
    headers,
    body: await normaliseBody(platform, index, request),
  };
}

export function errorShape(error: unknown): ErrorShape {
  if (!(error instanceof Error)) {
    return {
      name: typeof error,
      message: `non-Error thrown: ${String(error)}`,
      status: undefined,
      code: undefined,
      data: undefined,
    };
  }
  const details = error as Error & { status?: unknown; code?: unknown; data?: unknown };
  return { name: error.name, message: error.message, status: details.status, code: details.code, data: details.data };
}

const POLL_MS = 10;

export async function observe(
  row: Row,
  maker: ClientMaker,
  platform: RecordingPlatform,
  browser: FakeBrowser | undefined,
): Promise<Observation> {
  platform.reset();
  browser?.reset(row.pageUrl, row.framed);
  for (const [key, value] of Object.entries(row.storage ?? {})) browser?.storage.setItem(key, value);
  platform.http.respond((request) => row.answer?.(request) ?? { status: 200, body: { ok: true } });
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${row.name}: ${what} did not happen`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  const tools: RunTools = {
    until,
    waitForSocket: (event, room) =>
      until(
        () => platform.socketEvents.some((entry) => entry.event === event && entry.room === room),
        `${event} ${room}`,
      ),
    async push(room, data) {
      await platform.push(room, typeof data === 'string' ? data : JSON.stringify(data));
    },
    requestCount: () => platform.http.requests.length,
    popupOpened: () => browser?.popup !== undefined,
    navigationCount: () => browser?.navigations.length ?? 0,
    platform,
    postFromPopup(data, origin) {
      if (!browser?.popup) throw new Error(`${row.name}: no popup was opened`);
      browser.postMessage(data, origin, browser.popup);
    },
  };
  let outcome: Outcome;
  let client: ConformanceClient | undefined;
  try {
    client = row.fromRequest
      ? maker.fromRequest(row.fromRequest(platform.url))
      : maker.create({ serverUrl: platform.url, appId: 'app-1', ...row.config });
    const result = await row.run(client, tools);
    outcome = { result: row.project ? row.project(result) : result };
  } catch (error) {
    outcome = { error: errorShape(error) };
  }
  // Fire-and-forget effects (a logout's navigation, a scheduled auth check) land within a tick or two.
  await new Promise((resolve) => setTimeout(resolve, 30));
  client?.cleanup();
  const requests = await Promise.all(
    platform.http.requests.map((request, index) => normaliseRequest(platform, index, request, browser !== undefined)),
  );
  return {
    requests,
    outcome,
    handshakes: platform.handshakes.map((handshake) => ({
      query: {
        ...handshake.query,
        ...(browser || !handshake.query.anonymous_id ? {} : { anonymous_id: '<per-process id>' }),
      },
    })),
    socketEvents: [...platform.socketEvents],
    actorSockets: structuredClone(platform.actorSockets),
    navigations: [...(browser?.navigations ?? [])],
    storage: browser?.storage.snapshot() ?? {},
  };
}
