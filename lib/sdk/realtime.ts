/**
 * Real-time updates over socket.io (PLATFORM-NOTES "Real-time").
 *
 * This module and socket.io-client are both loaded on the first subscription (see realtime-loader.ts),
 * so pages that never subscribe download neither. One socket per client carries every room.
 */
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import type { AgentConversation, AgentMessage, EntityChangeEvent, EntityFields, EntityRecord, Unsubscribe } from './types';

/** Socket options from SPEC section 9: 1 s to 5 s backoff, jitter 0.5, unlimited attempts, 20 s connect timeout. */
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

/** A room's raw `update_model` payload (`data`, usually a JSON string). */
export type RoomListener = (data: unknown) => void;

export interface RealtimeConfig {
  serverUrl: string;
  appId: string;
  /** Read at each (re)connect so the socket authenticates as the current user. */
  getToken: () => string | null;
}

export interface Realtime {
  /** Listens to a room; joins it when the socket is (or becomes) connected. */
  subscribe(room: string, listener: RoomListener): Unsubscribe;
  /** Calls `callback` with each parsed change of an entity collection; malformed updates are skipped. */
  subscribeToEntity<T extends object>(entityName: string, callback: (event: EntityChangeEvent<T>) => void): Unsubscribe;
  /** Calls `callback` with the whole conversation after each change; malformed updates are skipped. */
  subscribeToConversation(conversationId: string, callback: (conversation: AgentConversation) => void): Unsubscribe;
  /** Reconnects with the current token after a login or logout, if a socket is open. */
  refreshToken(): void;
  /** Disconnects and drops every listener. */
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

function parseJson(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

function isRecordObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const CHANGE_TYPES = new Set(['create', 'update', 'delete']);

/** Parses an entity room's `update_model` data; null when it is not a valid change event. */
export function parseEntityChange<T extends object = EntityFields>(data: unknown): EntityChangeEvent<T> | null {
  const event = parseJson(data);
  if (!isRecordObject(event) || typeof event.type !== 'string' || !CHANGE_TYPES.has(event.type)) return null;
  const record = isRecordObject(event.data) ? (event.data as EntityRecord<T>) : undefined;
  const id = typeof event.id === 'string' ? event.id : record?.id;
  if (typeof id !== 'string') return null;
  return {
    type: event.type as EntityChangeEvent['type'],
    id,
    data: record,
    timestamp: typeof event.timestamp === 'string' ? event.timestamp : new Date().toISOString(),
  };
}

/**
 * Parses an agent room's `update_model` data (the whole conversation); null when malformed. The
 * platform also names the changed message under `_message`: it is merged into `messages` (replacing
 * the message with the same id, else appended) and dropped, so callers get a plain conversation.
 */
export function parseConversationUpdate(data: unknown): AgentConversation | null {
  const parsed = parseJson(data);
  if (!isRecordObject(parsed) || typeof parsed.id !== 'string' || !Array.isArray(parsed.messages)) return null;
  const { _message: changed, ...conversation } = parsed;
  const messages = parsed.messages as AgentMessage[];
  if (isRecordObject(changed)) {
    const message = changed as AgentMessage;
    const index = message.id === undefined ? -1 : messages.findIndex((existing) => existing?.id === message.id);
    conversation.messages = index === -1 ? [...messages, message] : messages.map((m, i) => (i === index ? message : m));
  }
  return conversation as AgentConversation;
}

interface UpdateModelMessage {
  room?: unknown;
  data?: unknown;
}

export function createRealtime(config: RealtimeConfig): Realtime {
  const listeners = new Map<string, Set<RoomListener>>();
  let socket: Socket | undefined;
  let opening: Promise<void> | undefined;
  // Bumped by close(): a socket whose import finishes after close() must not connect.
  let generation = 0;

  function query(): Record<string, string> {
    const token = config.getToken();
    return token ? { app_id: config.appId, token } : { app_id: config.appId };
  }

  function dispatch(message: UpdateModelMessage): void {
    if (typeof message?.room !== 'string') return;
    for (const listener of listeners.get(message.room) ?? []) {
      try {
        listener(message.data);
      } catch (error) {
        // One failing subscriber must not starve the others of the update.
        console.error('[platform-sdk] real-time listener failed:', error);
      }
    }
  }

  function open(): void {
    if (socket || opening) return;
    const openedIn = generation;
    opening = import('socket.io-client')
      .then(({ io }) => {
        if (openedIn !== generation) return;
        const connection = io(config.serverUrl || undefined, { ...SOCKET_OPTIONS, query: query() });
        // Rejoin every room that still has listeners on each (re)connect; the server forgets rooms.
        connection.on('connect', () => {
          for (const room of listeners.keys()) connection.emit('join', room);
        });
        connection.on('update_model', dispatch);
        socket = connection;
      })
      .catch((error: unknown) => {
        console.error('[platform-sdk] could not load the real-time client:', error);
      })
      .finally(() => {
        opening = undefined;
      });
  }

  function subscribe(room: string, listener: RoomListener): Unsubscribe {
    let roomListeners = listeners.get(room);
    if (!roomListeners) {
      roomListeners = new Set();
      listeners.set(room, roomListeners);
      if (socket?.connected) socket.emit('join', room);
    }
    // A wrapper keeps two subscriptions with the same function independent.
    const entry: RoomListener = (data) => listener(data);
    roomListeners.add(entry);
    open();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = listeners.get(room);
      current?.delete(entry);
      if (current && current.size === 0) {
        listeners.delete(room);
        if (socket?.connected) socket.emit('leave', room);
      }
    };
  }

  return {
    subscribe,
    subscribeToEntity<T extends object>(entityName: string, callback: (event: EntityChangeEvent<T>) => void) {
      return subscribe(entityRoom(config.appId, entityName), (data) => {
        const event = parseEntityChange<T>(data);
        if (event) callback(event);
      });
    },
    subscribeToConversation(conversationId: string, callback: (conversation: AgentConversation) => void) {
      return subscribe(conversationRoom(conversationId), (data) => {
        const conversation = parseConversationUpdate(data);
        if (conversation) callback(conversation);
      });
    },
    refreshToken() {
      if (!socket) return;
      socket.io.opts.query = query();
      socket.disconnect().connect();
    },
    close() {
      generation += 1;
      listeners.clear();
      socket?.disconnect();
      socket = undefined;
      opening = undefined;
    },
  };
}
