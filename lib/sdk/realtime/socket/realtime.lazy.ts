/**
 * Real-time updates over socket.io (docs/SPEC.md sections 4, 7 and 9; docs/PLATFORM-NOTES.md "Real-time").
 *
 * This module and socket.io-client are both loaded on the first subscription (see ../realtime-loader.ts),
 * so pages that never subscribe download neither. One socket per client carries every room; rooms
 * are reference-counted by {@link RoomRegistry}. Everything the server sends is decoded defensively:
 * a bad payload reaches the room's error listeners and never throws out of a socket handler.
 */
import type { PlatformError } from '../../core/errors';
import type { EntityChangeEvent, Unsubscribe } from '../../core/types';
import {
  conversationRoom,
  entityRoom,
  SOCKET_OPTIONS,
  type PlatformSocket,
  type Realtime,
  type RealtimeConfig,
  type RealtimeDependencies,
  type RoomListener,
} from '../realtime-types';
import type { SubscriptionHooks } from '../subscription-hooks';
import { followConversation } from './conversation';
import { socketHandshake } from './handshake';
import {
  decodeConversationChange,
  decodeEntityChange,
  parseServerError,
  parseUpdateEnvelope,
  RealtimeErrorCodes,
  type Decoded,
  type RealtimeProblem,
} from './parse';
import { RoomRegistry, type RoomSubscriber } from './rooms';

export { parseConversationUpdate, parseEntityChange, MAX_UPDATE_DATA_LENGTH, RealtimeErrorCodes } from './parse';
export { ROOM_LEAVE_GRACE_MS } from './rooms';
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

/** A refused connection (`connect_error` that socket.io will not retry), with the server's code if any. */
function refusedConnection(error: unknown): RealtimeProblem {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined;
  const code = typeof data === 'object' && data !== null ? (data as { code?: unknown }).code : undefined;
  const message =
    error instanceof Error && error.message ? error.message : 'The real-time server refused the connection';
  return { message, code: typeof code === 'string' ? code : RealtimeErrorCodes.connectionRefused, data, cause: error };
}

export function createRealtime(config: RealtimeConfig, dependencies: RealtimeDependencies): Realtime {
  const toError = ({ message, ...details }: RealtimeProblem): PlatformError =>
    new dependencies.PlatformError(message, details);
  let socket: PlatformSocket | undefined;
  let opening: Promise<void> | undefined;
  // Set while the handshake URL is over the limit: new subscribers learn why nothing arrives.
  let urlProblem: PlatformError | undefined;
  // Bumped by close(): a socket whose import finishes after close() must not connect.
  let generation = 0;

  const rooms = new RoomRegistry({
    isConnected: () => socket?.connected === true,
    join: (room) => socket?.emit('join', room),
    leave: (room) => socket?.emit('leave', room),
  });

  /** The current handshake query, or undefined (after telling every subscriber) when its URL is too long. */
  function checkedQuery(): Record<string, string> | undefined {
    const handshake = socketHandshake(config.serverUrl, SOCKET_OPTIONS.path, {
      appId: config.appId,
      token: config.getToken(),
      visitorId: config.getVisitorId,
    });
    urlProblem = handshake.problem ? toError(handshake.problem) : undefined;
    if (!urlProblem) return handshake.query;
    rooms.reportError(undefined, urlProblem);
    return undefined;
  }

  function onUpdate(message: unknown): void {
    const envelope = parseUpdateEnvelope(message);
    if (envelope) {
      rooms.dispatch(envelope.room, envelope.data);
      return;
    }
    // Without a room there is no telling whose update it was: everyone may have missed a change.
    rooms.reportError(
      undefined,
      toError({ message: 'Ignored an update_model message without a room', code: RealtimeErrorCodes.malformedUpdate }),
    );
  }

  function onServerError(payload: unknown): void {
    const { room, problem } = parseServerError(payload);
    if (room !== undefined) rooms.refuse(room, toError(problem));
    else rooms.reportError(undefined, toError(problem));
  }

  /** Wraps a handler so nothing the server sends can throw out of socket.io's event loop. */
  function guarded<Args extends unknown[]>(handler: (...args: Args) => void): (...args: Args) => void {
    return (...args) => {
      try {
        handler(...args);
      } catch (error) {
        console.error('[platform-sdk] real-time handler failed:', error);
      }
    };
  }

  function attach(connection: PlatformSocket): void {
    connection.on(
      'connect',
      guarded(() => rooms.connected()),
    );
    connection.on(
      'disconnect',
      guarded((reason: string) => {
        rooms.disconnected();
        // socket.io never reconnects after the server's own disconnect(); without this a client the
        // server kicked once would stay offline for good. The longest backoff delay keeps it polite.
        if (reason === 'io server disconnect') {
          setTimeout(() => {
            if (socket === connection && !connection.active && rooms.hasSubscribers()) connection.connect();
          }, SOCKET_OPTIONS.reconnectionDelayMax);
        }
      }),
    );
    connection.on('update_model', guarded(onUpdate));
    connection.on('error', guarded(onServerError));
    connection.on(
      'connect_error',
      guarded((error: unknown) => {
        // An active socket is retrying (server down, network): not an error of any room yet.
        if (!connection.active) rooms.reportError(undefined, toError(refusedConnection(error)));
      }),
    );
    // Each automatic reconnect re-reads the token, so it never reconnects with a stale one.
    connection.io.on(
      'reconnect_attempt',
      guarded(() => {
        const current = checkedQuery();
        if (current) connection.io.opts.query = current;
        else connection.disconnect();
      }),
    );
  }

  function open(): void {
    if (socket || opening) return;
    const openedIn = generation;
    opening = import('socket.io-client')
      .then(({ io }) => {
        if (openedIn !== generation || socket) return;
        // Subscribers may all have left while the client loaded.
        if (!rooms.hasSubscribers()) return;
        const current = checkedQuery();
        if (!current) return;
        // forceNew: two clients for the same server must not share (and close) one connection.
        const connection: PlatformSocket = io(config.serverUrl || undefined, {
          ...SOCKET_OPTIONS,
          forceNew: true,
          query: current,
        });
        attach(connection);
        socket = connection;
      })
      .catch((error: unknown) => {
        rooms.reportError(
          undefined,
          toError({
            message: 'Could not load the real-time client',
            code: RealtimeErrorCodes.unavailable,
            cause: error,
          }),
        );
      })
      .finally(() => {
        opening = undefined;
      });
  }

  function subscribe(room: string, listener: RoomListener, hooks: SubscriptionHooks = {}): Unsubscribe {
    const subscriber: RoomSubscriber = { onMessage: listener, hooks };
    const unsubscribe = rooms.add(room, subscriber);
    if (urlProblem) {
      const problem = urlProblem;
      hooks.onError?.(problem);
    } else {
      open();
    }
    return unsubscribe;
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
        else hooks.onError?.(toError(decoded.problem));
      },
      hooks,
    );
  }

  return {
    subscribe,
    subscribeToEntity<T extends object>(
      entityName: string,
      callback: (event: EntityChangeEvent<T>) => void,
      hooks?: SubscriptionHooks,
    ) {
      return subscribeDecoded(entityRoom(config.appId, entityName), decodeEntityChange<T>, callback, hooks);
    },
    subscribeToConversation(conversationId, callback, hooks, initial) {
      const follow = followConversation(initial, callback, (error) => hooks?.onError?.(error as PlatformError));
      return subscribeDecoded(conversationRoom(conversationId), decodeConversationChange, follow, hooks);
    },
    refreshToken() {
      if (!socket) {
        // Never opened, or refused for its URL length: try again with the new token.
        if (rooms.hasSubscribers()) open();
        return;
      }
      const current = checkedQuery();
      // disconnect() fires 'disconnect' (rooms unjoined) before connect() starts the new handshake.
      socket.disconnect();
      if (!current) return;
      socket.io.opts.query = current;
      socket.connect();
    },
    close() {
      generation += 1;
      rooms.clear();
      urlProblem = undefined;
      socket?.disconnect();
      socket = undefined;
      opening = undefined;
    },
  };
}
