/**
 * Actors (reference `client.actors.<Name>(instanceId).connect()`): a stateful room on the platform,
 * reached over a WebSocket. The connection mints a short-lived connection token and opens the URL the
 * platform names; platforms without minting (405/409/422/503) are reached through the actors proxy.
 * The socket code loads with the first connect().
 */
import { ErrorCodes, PlatformError, toJson } from '../core/errors';
import type { Transport } from '../core/transport';

/** Unsent messages a connection keeps while its socket loads, connects or reconnects. */
export const MAX_QUEUED_MESSAGES = 1000;

/**
 * Queues `message` for a socket that is not open, or throws `SEND_QUEUE_FULL` when the queue holds
 * {@link MAX_QUEUED_MESSAGES}: an actor that stays unreachable must not make the page's memory grow
 * without end (the reference buffers forever), and the caller learns its message was not queued.
 */
export function enqueueUnsent(queue: string[], message: string): void {
  if (queue.length >= MAX_QUEUED_MESSAGES) {
    throw new PlatformError(
      `The actor connection is not open and already holds ${MAX_QUEUED_MESSAGES} unsent messages; this one was not queued`,
      { code: ErrorCodes.sendQueueFull },
    );
  }
  queue.push(message);
}

export interface ActorSubscription {
  unsubscribe(): void;
}

export interface ActorConnection<ToClient = unknown, ToServer = unknown> {
  readonly id: string;
  /** Calls `callback` with every message (parsed JSON) the actor sends. */
  subscribe(callback: (data: ToClient) => void): ActorSubscription;
  /**
   * Sends `data` as JSON; queued until the socket is open. Throws `INVALID_ARGUMENT` for data JSON
   * cannot encode and `SEND_QUEUE_FULL` when {@link MAX_QUEUED_MESSAGES} messages already wait.
   */
  send(data: ToServer): void;
  close(): void;
}

export interface ActorRef {
  /** The connection of this ref, opened on first call; `id` names the connection (default random). */
  connect(options?: { id?: string }): ActorConnection;
}

export type ActorsModule = Record<string, (instanceId: string) => ActorRef>;

export interface ActorsContext {
  appId: string;
  /** The platform origin the proxy fallback connects to. */
  host: string;
  functionsVersion: string | undefined;
  getToken: () => string | null;
  /** A transport whose failures reach no `onError` (an old platform answers every mint with 409). */
  mintTransport: Transport;
}

/** `client.actors` plus a way to close every open connection (client.cleanup). */
export function createActorsModule(context: ActorsContext): { module: ActorsModule; closeAll(): void } {
  const open = new Set<ActorConnection>();
  const actors = new Proxy({} as ActorsModule, {
    get(_target, actorName) {
      if (typeof actorName !== 'string' || actorName === 'then') return undefined;
      return (instanceId: string): ActorRef => {
        let connection: ActorConnection | undefined;
        return {
          connect(options) {
            connection ??= startConnection(context, actorName, instanceId, options?.id ?? crypto.randomUUID(), () => {
              if (connection) open.delete(connection);
              connection = undefined;
            });
            open.add(connection);
            return connection;
          },
        };
      };
    },
  });
  return { module: actors, closeAll: () => [...open].forEach((connection) => connection.close()) };
}

function startConnection(
  context: ActorsContext,
  actorName: string,
  instanceId: string,
  id: string,
  onClose: () => void,
): ActorConnection {
  const listeners = new Set<(data: unknown) => void>();
  const pending: string[] = [];
  let closed = false;
  let driver: { send(message: string): void; close(): void } | undefined;
  void import('./actor-socket.lazy').then(({ openActorSocket }) => {
    if (closed) return;
    driver = openActorSocket({
      context,
      actorName,
      instanceId,
      id,
      isClosed: () => closed,
      onMessage,
      onTerminal: () => connection.close(),
      // Handed over, not imported: the socket code stays one lazy chunk.
      enqueueUnsent,
    });
    for (const message of pending.splice(0)) driver.send(message);
  });
  function onMessage(data: unknown): void {
    for (const listener of [...listeners]) listener(data);
  }
  const connection: ActorConnection = {
    id,
    subscribe(callback) {
      listeners.add(callback as (data: unknown) => void);
      return { unsubscribe: () => listeners.delete(callback as (data: unknown) => void) };
    },
    send(data) {
      if (closed) return;
      const message = toJson('The actor message', data);
      if (driver) driver.send(message);
      else enqueueUnsent(pending, message);
    },
    close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      driver?.close();
      onClose();
    },
  };
  return connection;
}
