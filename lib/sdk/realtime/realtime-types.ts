/**
 * The shapes of the real-time client, apart from its implementation: socket options, the socket's
 * typed event map, the config, the public interface and the room names. Type-only imports of
 * socket.io, so the loader can use these without pulling the socket into the first load.
 */
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';

import type { PlatformError } from '../core/errors';
import type {
  AgentConversation,
  EntityChangeEvent,
  EntityRecord,
  Unsubscribe,
  WatchOptions,
  WatchSnapshot,
} from '../core/types';
import type { SubscriptionHooks } from './subscription-hooks';

/** Socket options from docs/SPEC.md section 9: 1 s to 5 s backoff, jitter 0.5, unlimited attempts, 20 s connect timeout. */
export const SOCKET_OPTIONS = {
  path: '/ws-user-apps/socket.io/',
  transports: ['websocket'],
  reconnection: true,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  reconnectionAttempts: Infinity,
  timeout: 20_000,
} satisfies Partial<ManagerOptions & SocketOptions>;

/**
 * The socket's events, typed: what the platform sends (payloads stay `unknown`: nothing from the
 * server is trusted before socket/parse.ts has decoded it) and what we send (room names). The
 * reserved events (connect, disconnect, connect_error) are typed by socket.io itself.
 */
interface ServerToClientEvents {
  update_model: (message: unknown) => void;
  error: (payload: unknown) => void;
  /** A live query's first result (docs/LIVE-QUERIES.md). */
  subscribed: (payload: unknown) => void;
}
interface ClientToServerEvents {
  join: (room: string) => void;
  leave: (room: string) => void;
  subscribe_query: (payload: Record<string, unknown>) => void;
  unsubscribe_query: (payload: Record<string, unknown>) => void;
}
export type PlatformSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A room's raw `update_model` payload (`data`, usually a JSON string). */
export type RoomListener = (data: unknown) => void;

export interface RealtimeConfig {
  serverUrl: string;
  appId: string;
  /** Read at each (re)connect so the socket authenticates as the current user. */
  getToken: () => string | null;
  /** The anonymous visitor id sent (as `anonymous_id`) when there is no token. */
  getVisitorId?: () => string;
}

/**
 * What the loader hands over besides the config. The error class comes from the caller because this
 * lazily loaded module must not import errors.ts at run time: the bundler would then move errors.ts
 * into a chunk shared with the initial bundle, and the split alone costs that bundle ~200 B gzip.
 */
export interface RealtimeDependencies {
  PlatformError: typeof PlatformError;
}

/** What `watch()` hands to real-time: its options, and the same query as `filter()` over HTTP. */
export interface EntityWatchQuery<T extends object> {
  options: WatchOptions<T>;
  load: () => Promise<EntityRecord<T>[]>;
}

export interface Realtime {
  /** Listens to a room; joins it when the socket is (or becomes) connected. */
  subscribe(room: string, listener: RoomListener, hooks?: SubscriptionHooks): Unsubscribe;
  /** Calls `callback` with each parsed change of an entity collection; bad updates go to `hooks.onError`. */
  subscribeToEntity<T extends object>(
    entityName: string,
    callback: (event: EntityChangeEvent<T>) => void,
    hooks?: SubscriptionHooks,
  ): Unsubscribe;
  /**
   * Calls `callback` with the whole conversation after each change: each update's `_message` is merged
   * into `initial` (the conversation loaded on subscribe). Bad updates go to `hooks.onError`.
   */
  subscribeToConversation(
    conversationId: string,
    callback: (conversation: AgentConversation) => void,
    hooks: SubscriptionHooks | undefined,
    initial: Promise<AgentConversation>,
  ): Unsubscribe;
  /**
   * Keeps `callback` fed with the result of a live query (docs/LIVE-QUERIES.md): the current result
   * first, then every changed one. `load` is the same query as `filter()` over HTTP, for a server
   * without live queries.
   */
  watchEntity<T extends object>(
    entityName: string,
    query: EntityWatchQuery<T>,
    callback: (snapshot: WatchSnapshot<EntityRecord<T>>) => void,
    hooks?: SubscriptionHooks,
  ): Unsubscribe;
  /** Reconnects with the current token after a login or logout, and rejoins every room. */
  refreshToken(): void;
  /** Disconnects and drops every listener. The instance may be used again afterwards. */
  close(): void;
}

/** The room of an entity collection. */
export function entityRoom(appId: string, entityName: string): string {
  return `entities:${appId}:${entityName}`;
}

/** The room of an agent conversation. */
export function conversationRoom(conversationId: string): string {
  return `/agent-conversations/${conversationId}`;
}
