/**
 * Actors (reference `client.actors.<Name>(instanceId).connect()`): a stateful room on the platform,
 * reached over a WebSocket. The connection mints a short-lived connection token and opens the URL the
 * platform names; platforms without minting (405/409/422/503) are reached through the actors proxy.
 * The socket code loads with the first connect().
 */
import type { Transport } from './transport';

export interface ActorSubscription {
  unsubscribe(): void;
}

export interface ActorConnection<ToClient = unknown, ToServer = unknown> {
  readonly id: string;
  /** Calls `callback` with every message (parsed JSON) the actor sends. */
  subscribe(callback: (data: ToClient) => void): ActorSubscription;
  /** Sends `data` as JSON; queued until the socket is open. */
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
  void import('./actor-socket').then(({ openActorSocket }) => {
    if (closed) return;
    driver = openActorSocket({
      context,
      actorName,
      instanceId,
      id,
      isClosed: () => closed,
      onMessage,
      onTerminal: () => connection.close(),
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
      const message = JSON.stringify(data);
      if (driver) driver.send(message);
      else pending.push(message);
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
