/**
 * The WebSocket of one actor connection, loaded with the first connect(): mints a connection token
 * (or falls back to the actors proxy), reconnects with jittered backoff, pings every second and
 * reconnects when nothing arrived for three.
 */
import { isPrivateNetworkHost } from '../../util/network';
import { isPlatformError } from '../core/errors';
import { apiPath } from '../core/validate';
import type { ActorsContext } from './actor-types';

const PING_MS = 1000;
const DEAD_MS = 3000;
const MAX_RETRY_MS = 10_000;
/** Mint answers of platforms without minting: connect through the proxy instead. */
const PROXY_FALLBACK = new Set([405, 409, 422, 503]);
/** Mint answers that will not change on retry: the connection closes. */
const TERMINAL = new Set([400, 403, 404]);

/**
 * Wait before reconnect attempt `attempt` (0-based): exponential up to {@link MAX_RETRY_MS}, of which
 * a random half is dropped ("equal jitter"), so the clients an outage disconnected together do not
 * all come back in the same instant.
 */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_MS, 1000 * 1.3 ** attempt);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/**
 * The actors proxy's address for one connection, as the reference builds it, except the scheme:
 * plain `ws:` (which carries the token in its query unencrypted) only for loopback and private
 * networks checked as address ranges; the reference's text comparison also sends public hosts such
 * as 172.2.0.1 or 172.200.0.1 over `ws:`.
 */
export function proxyActorUrl(
  context: ActorsContext,
  actorName: string,
  instanceId: string,
  connectionId: string,
): string {
  const host = context.host.replace(/^(http|https|ws|wss):\/\//, '').replace(/\/$/, '');
  const insecure = isPrivateNetworkHost(host);
  const query = new URLSearchParams([
    ['_pk', connectionId],
    ['app_id', context.appId],
    ['handler', actorName],
  ]);
  const token = context.getToken();
  if (token) query.append('token', token);
  if (context.functionsVersion) query.append('fv', context.functionsVersion);
  return `${insecure ? 'ws' : 'wss'}://${host}${apiPath`/parties/${actorName}/${instanceId}`}?${query}`;
}

export interface ActorSocketOptions {
  context: ActorsContext;
  actorName: string;
  instanceId: string;
  id: string;
  isClosed(): boolean;
  onMessage(data: unknown): void;
  /** The platform refused this connection for good. */
  onTerminal(): void;
  /** Queues a message while the socket is not open; throws when the bounded queue is full (send-queue.ts). */
  enqueueUnsent(queue: string[], message: string): void;
}

/**
 * Where each connection attempt goes: a freshly minted URL, or, once the platform answered that it
 * mints none, the actors proxy for good. A mint refused for good ends the connection.
 */
function createAddressResolver(options: ActorSocketOptions): () => Promise<string> {
  const { context, actorName, instanceId, id } = options;
  let useProxy = false;
  async function mint(): Promise<string> {
    const token = context.getToken();
    const minted = await context.mintTransport.request<{ websocket_url: string; token: string }>({
      method: 'POST',
      path: `${apiPath`/apps/${context.appId}/actors/${actorName}`}/connection-token`,
      body: { room: instanceId, connection_id: id },
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(context.functionsVersion ? { 'Base44-Functions-Version': context.functionsVersion } : {}),
      },
    });
    const separator = minted.websocket_url.includes('?') ? '&' : '?';
    return `${minted.websocket_url}${separator}token=${encodeURIComponent(minted.token)}`;
  }
  return async () => {
    if (!useProxy) {
      try {
        return await mint();
      } catch (error) {
        const status = isPlatformError(error) ? error.status : undefined;
        if (status === undefined || !PROXY_FALLBACK.has(status)) {
          if (status !== undefined && TERMINAL.has(status)) options.onTerminal();
          throw error;
        }
        useProxy = true;
      }
    }
    return proxyActorUrl(context, actorName, instanceId, id);
  };
}

/** The actor's messages as parsed JSON, without the heartbeat's pongs; undefined for anything else. */
function actorMessage(event: MessageEvent): { data: unknown } | undefined {
  let data: unknown;
  try {
    data = JSON.parse(String(event.data));
  } catch {
    return undefined;
  }
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === '__pong') return undefined;
  return { data };
}

export function openActorSocket(options: ActorSocketOptions): { send(message: string): void; close(): void } {
  const address = createAddressResolver(options);
  let socket: WebSocket | undefined;
  let attempt = 0;
  let lastMessage = Date.now();
  const queue: string[] = [];

  async function connect(): Promise<void> {
    let url: string;
    try {
      url = await address();
    } catch {
      retry();
      return;
    }
    if (options.isClosed()) return;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      lastMessage = Date.now();
      for (const message of queue.splice(0)) ws.send(message);
    };
    ws.onmessage = (event: MessageEvent) => {
      lastMessage = Date.now();
      const message = actorMessage(event);
      if (message) options.onMessage(message.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = undefined;
      retry();
    };
  }

  function retry(): void {
    if (options.isClosed()) return;
    const delay = retryDelay(attempt);
    attempt += 1;
    setTimeout(() => void connect(), delay);
  }

  const heartbeat = setInterval(() => {
    if (Date.now() - lastMessage > DEAD_MS) {
      lastMessage = Date.now();
      const stale = socket;
      if (stale?.readyState === WebSocket.OPEN) stale.close();
      return;
    }
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: '__ping' }));
  }, PING_MS);

  void connect();
  return {
    send(message) {
      if (socket?.readyState === WebSocket.OPEN) socket.send(message);
      else options.enqueueUnsent(queue, message);
    },
    close() {
      clearInterval(heartbeat);
      const current = socket;
      socket = undefined;
      current?.close();
    },
  };
}
