import type { Server, Socket } from 'socket.io';

import type { SocketState } from './access';

/**
 * The socket's events in both directions (docs/PLATFORM-NOTES.md "Real-time" for rooms,
 * docs/LIVE-QUERIES.md for live queries). What clients send stays `unknown` until checked.
 */

export interface ClientEvents {
  join: (room: unknown) => void;
  leave: (room: unknown) => void;
  subscribe_query: (payload: unknown) => void;
  unsubscribe_query: (payload: unknown) => void;
}

export interface UpdateModelMessage {
  room: string;
  /** A JSON string: `{ type, id, data, timestamp }` for entities, the conversation for agent rooms. */
  data: string;
}

export interface JoinErrorMessage {
  message: string;
  code: string;
  room: string | null;
}

/** The answer to `subscribe_query`: the query's first result. */
export interface SubscribedMessage {
  room: string;
  entity_name: string;
  query_id: string;
  options: Record<string, unknown>;
  seq: 0;
  entities: Record<string, unknown>[];
  timestamp: string;
}

export interface UnsubscribedMessage {
  room: string;
  entity_name: string;
  query_id: string;
}

export interface ServerEvents {
  update_model: (message: UpdateModelMessage) => void;
  error: (problem: JoinErrorMessage) => void;
  subscribed: (message: SubscribedMessage) => void;
  unsubscribed: (message: UnsubscribedMessage) => void;
}

export type RealtimeServerIo = Server<ClientEvents, ServerEvents, Record<string, never>, SocketState>;
export type RealtimeSocket = Socket<ClientEvents, ServerEvents, Record<string, never>, SocketState>;
