/**
 * Real-time updates over socket.io (docs/SPEC.md sections 4, 7 and 9; docs/PLATFORM-NOTES.md "Real-time").
 *
 * This module and socket.io-client are both loaded on the first subscription or watch (see
 * ../realtime-loader.ts), so pages that never subscribe download neither. One socket per client
 * (connection.ts) carries every room, reference-counted by {@link RoomRegistry} (rooms.ts), and every
 * live query, kept by {@link LiveQueryRegistry} (live-queries.ts). Everything the server sends is
 * decoded defensively: a bad payload reaches its subscribers' error listeners and never throws out
 * of a socket handler.
 */
import type { PlatformError } from '../../core/errors';
import type { EntityChangeEvent, EntityFields, EntityRecord, Unsubscribe, WatchSnapshot } from '../../core/types';
import {
  conversationRoom,
  entityRoom,
  type EntityWatchQuery,
  type Realtime,
  type RealtimeConfig,
  type RealtimeDependencies,
  type RoomListener,
} from '../realtime-types';
import type { SubscriptionHooks } from '../subscription-hooks';
import { RealtimeConnection } from './connection';
import { followConversation } from './conversation';
import { LiveQueryRegistry } from './live-queries';
import { watchArgumentsProblem } from './live-query-arguments';
import {
  decodeConversationChange,
  decodeEntityChange,
  parseServerError,
  parseUpdateEnvelope,
  RealtimeErrorCodes,
  type Decoded,
} from './parse';
import { RoomRegistry, type RoomSubscriber } from './rooms';

export { parseConversationUpdate, parseEntityChange, MAX_UPDATE_DATA_LENGTH, RealtimeErrorCodes } from './parse';
export { ROOM_LEAVE_GRACE_MS } from './rooms';
export { LIVE_QUERY_PROBE_MS } from './live-queries';
export { MAX_SOCKET_URL_LENGTH } from './handshake';
export {
  SOCKET_OPTIONS,
  conversationRoom,
  entityRoom,
  type Realtime,
  type RealtimeConfig,
  type RealtimeDependencies,
  type RoomListener,
} from '../realtime-types';

/** Where a server event goes: a live query's room, an entity or conversation room, or everyone. */
function router(
  connection: RealtimeConnection,
  rooms: RoomRegistry,
  liveQueries: LiveQueryRegistry,
): (event: 'update_model' | 'error' | 'subscribed', payload: unknown) => void {
  return (event, payload) => {
    if (event === 'subscribed') return liveQueries.subscribed(payload);
    if (event === 'error') {
      const { room, problem } = parseServerError(payload);
      const error = connection.toError(problem);
      if (room !== undefined && liveQueries.owns(room)) return liveQueries.refused(room, error);
      if (room !== undefined) return rooms.refuse(room, error);
      rooms.reportError(undefined, error);
      return liveQueries.reportError(error);
    }
    const envelope = parseUpdateEnvelope(payload);
    if (envelope && liveQueries.owns(envelope.room)) return liveQueries.update(envelope.room, envelope.data);
    if (envelope) return rooms.dispatch(envelope.room, envelope.data);
    // Without a room there is no telling whose update it was: everyone may have missed a change.
    const message = 'Ignored an update_model message without a room';
    rooms.reportError(undefined, connection.toError({ message, code: RealtimeErrorCodes.malformedUpdate }));
  };
}

/** Starts something that needs the socket: it learns at once when the socket cannot be used. */
function started<T>(connection: RealtimeConnection, subscription: T, hooks: SubscriptionHooks): T {
  const problem = connection.problem;
  if (problem) hooks.onError?.(problem);
  else connection.open();
  return subscription;
}

/** Room subscriptions on the connection: raw, decoded, and an entity's changes. */
function roomSubscriptions(config: RealtimeConfig, connection: RealtimeConnection, rooms: RoomRegistry) {
  function subscribe(room: string, listener: RoomListener, hooks: SubscriptionHooks = {}): Unsubscribe {
    const subscriber: RoomSubscriber = { onMessage: listener, hooks };
    return started(connection, rooms.add(room, subscriber), hooks);
  }

  /** Subscribes with a decoder: decoded values go to `callback`, errors to `hooks.onError`. */
  function subscribeDecoded<T>(
    room: string,
    decode: (room: string, data: unknown) => Decoded<T>,
    callback: (value: T) => void,
    hooks: SubscriptionHooks = {},
  ): Unsubscribe {
    return subscribe(
      room,
      (data) => {
        const decoded = decode(room, data);
        if ('value' in decoded) callback(decoded.value);
        else hooks.onError?.(connection.toError(decoded.problem));
      },
      hooks,
    );
  }

  function subscribeToEntity<T extends object>(
    entityName: string,
    callback: (event: EntityChangeEvent<T>) => void,
    hooks?: SubscriptionHooks,
  ): Unsubscribe {
    return subscribeDecoded(entityRoom(config.appId, entityName), decodeEntityChange<T>, callback, hooks);
  }

  return { subscribe, subscribeDecoded, subscribeToEntity };
}

export function createRealtime(config: RealtimeConfig, dependencies: RealtimeDependencies): Realtime {
  const connection: RealtimeConnection = new RealtimeConnection(config, dependencies, {
    connected: () => {
      rooms.connected();
      liveQueries.connected();
    },
    disconnected: () => {
      rooms.disconnected();
      liveQueries.disconnected();
    },
    received: (event, payload) => route(event, payload),
    failed: (error) => {
      rooms.reportError(undefined, error);
      liveQueries.reportError(error);
    },
    wanted: () => rooms.hasSubscribers() || liveQueries.hasQueries(),
  });
  const rooms = new RoomRegistry({
    isConnected: () => connection.isConnected(),
    join: (room) => connection.emit('join', room),
    leave: (room) => connection.emit('leave', room),
  });
  const { subscribe, subscribeDecoded, subscribeToEntity } = roomSubscriptions(config, connection, rooms);
  const liveQueries = new LiveQueryRegistry({
    appId: config.appId,
    isConnected: () => connection.isConnected(),
    emit: (event, payload) => connection.emit(event, payload),
    subscribeToEntity,
  });
  const route = router(connection, rooms, liveQueries);

  return {
    subscribe,
    subscribeToEntity,
    subscribeToConversation(conversationId, callback, hooks, initial) {
      const follow = followConversation(initial, callback, (error) => hooks?.onError?.(error as PlatformError));
      return subscribeDecoded(conversationRoom(conversationId), decodeConversationChange, follow, hooks);
    },
    watchEntity<T extends object>(
      entityName: string,
      query: EntityWatchQuery<T>,
      callback: (snapshot: WatchSnapshot<EntityRecord<T>>) => void,
      hooks: SubscriptionHooks = {},
    ) {
      const { options, load } = query as unknown as EntityWatchQuery<EntityFields>;
      const problem = watchArgumentsProblem(options, callback);
      if (problem) {
        const error = connection.toError(problem);
        if (hooks.onError) hooks.onError(error);
        else console.error('[platform-sdk] watch:', error);
        return () => undefined;
      }
      const forward = callback as (snapshot: WatchSnapshot<EntityRecord>) => void;
      return started(connection, liveQueries.watch(entityName, options, load, forward, hooks), hooks);
    },
    refreshToken: () => connection.refreshToken(),
    close() {
      rooms.clear();
      liveQueries.clear();
      connection.close();
    },
  };
}
