/**
 * The shapes of `actors`, apart from the code: the connection (actors.ts) and its lazily loaded
 * socket (actor-socket.lazy.ts) both use them.
 */
import type { Transport } from '../core/transport';

export interface ActorSubscription {
  unsubscribe(): void;
}

export interface ActorConnection<ToClient = unknown, ToServer = unknown> {
  readonly id: string;
  /** Calls `callback` with every message (parsed JSON) the actor sends. */
  subscribe(callback: (data: ToClient) => void): ActorSubscription;
  /**
   * Sends `data` as JSON; queued until the socket is open. Throws `INVALID_ARGUMENT` for data JSON
   * cannot encode and `SEND_QUEUE_FULL` when MAX_QUEUED_MESSAGES (send-queue.ts) messages already wait.
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
