/**
 * Actors (reference `client.actors.<Name>(instanceId).connect()`): a stateful room on the platform,
 * reached over a WebSocket. The connection mints a short-lived connection token and opens the URL the
 * platform names; platforms without minting (405/409/422/503) are reached through the actors proxy.
 * The socket code loads with the first connect().
 */
import { toJson } from '../core/errors';
import type { ActorConnection, ActorRef, ActorsContext, ActorsModule } from './actor-types';
import { enqueueUnsent } from './send-queue';

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
      // Handed over, not imported: the socket chunk then shares no module with the eager code but
      // the core, which keeps it one chunk and the first load smaller.
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
