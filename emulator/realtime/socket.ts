import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';

import { callerFromToken, checkAppAccess, maySeeConversation, normaliseToken, type Caller } from '../auth/caller';
import { DomainError } from '../core/errors';
import { USER_ENTITY, type EntityRecord } from '../core/types';
import type { EmulatorContext, RealtimePublisher } from '../instance/context';
import { recordRules } from '../model/rules';
import { mayFollowUsers } from '../model/user-security';

/**
 * Real-time over socket.io at `/ws-user-apps/socket.io/`. The handshake names the app (`app_id`)
 * and optionally a token; a bad app or token fails the connection. Rooms are joined with `join`:
 * `entities:{appId}:{Entity}` and `/agent-conversations/{id}`, each checked against the same rules
 * as the HTTP API. Every acknowledged change is broadcast as `update_model` `{ room, data }` where
 * `data` is a JSON string, exactly what @base44/sdk parses. Entity changes go to each socket on its
 * own, as its caller may see the record (emulator/model/security.ts): a record it may not read is
 * not sent, a field it may not read is left out.
 */

export const SOCKET_PATH = '/ws-user-apps/socket.io/';
const MAX_ROOMS_PER_SOCKET = 100;
const MAX_ROOM_LENGTH = 300;

interface SocketState {
  appId: string;
  token: string | null;
}

interface ClientEvents {
  join: (room: unknown) => void;
  leave: (room: unknown) => void;
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

interface ServerEvents {
  update_model: (message: UpdateModelMessage) => void;
  error: (problem: JoinErrorMessage) => void;
}

type RealtimeServerIo = Server<ClientEvents, ServerEvents, Record<string, never>, SocketState>;
type RealtimeSocket = Socket<ClientEvents, ServerEvents, Record<string, never>, SocketState>;

class JoinRefused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function errorWithData(message: string, data: Record<string, unknown>): Error & { data: Record<string, unknown> } {
  return Object.assign(new Error(message), { data });
}

/** The caller as of now: tokens can expire or be revoked while the socket stays open. */
function currentCaller(context: EmulatorContext, state: SocketState): Caller {
  const app = context.apps.get(state.appId);
  const caller = app ? callerFromToken(context, app, state.token) : null;
  if (!app || !caller) throw new JoinRefused('The access token is invalid or has expired', 'invalid_token');
  try {
    checkAppAccess(app, caller);
  } catch (error) {
    if (error instanceof DomainError) throw new JoinRefused(error.message, error.code);
    throw error;
  }
  return caller;
}

function checkEntityRoom(context: EmulatorContext, state: SocketState, room: string): void {
  const parts = room.split(':');
  if (parts.length !== 3) throw new JoinRefused('Entity rooms look like entities:{appId}:{Entity}', 'unknown_room');
  const [, appId, entity] = parts as [string, string, string];
  if (!context.apps.has(appId)) throw new JoinRefused(`Unknown app ${appId}`, 'app_not_found');
  if (appId !== state.appId) throw new JoinRefused('This room belongs to another app', 'forbidden_room');
  if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(entity))
    throw new JoinRefused(`"${entity}" is not a valid entity name`, 'invalid_entity');
  const caller = currentCaller(context, state);
  if (entity === USER_ENTITY && !mayFollowUsers(caller))
    throw new JoinRefused('Only admins and the service role may follow users', 'admin_required');
}

/** The record as this socket's caller may see it now; null: it gets no event. */
function entityViewFor(
  context: EmulatorContext,
  state: SocketState,
  entity: string,
  record: EntityRecord,
): EntityRecord | null {
  try {
    return recordRules(context.entities, state.appId, entity, currentCaller(context, state)).view(record);
  } catch (error) {
    // A caller that just lost access (evicted below) or a rule the project got wrong: nothing is sent.
    if (error instanceof JoinRefused || error instanceof DomainError) return null;
    throw error;
  }
}

function checkConversationRoom(context: EmulatorContext, state: SocketState, room: string): void {
  const caller = currentCaller(context, state);
  if (caller.kind === 'anonymous') throw new JoinRefused('Authentication required', 'auth_required');
  const id = room.slice('/agent-conversations/'.length);
  const conversation = context.store.findConversation(state.appId, id);
  if (!conversation || !maySeeConversation(caller, conversation)) {
    throw new JoinRefused('Conversation not found', 'conversation_not_found');
  }
}

/** May this socket's caller, as of now, follow the room? Used on join and again before every delivery. */
function checkRoom(context: EmulatorContext, state: SocketState, room: string): void {
  if (room.startsWith('entities:')) checkEntityRoom(context, state, room);
  else if (room.startsWith('/agent-conversations/')) checkConversationRoom(context, state, room);
  else throw new JoinRefused(`Unknown room ${room}`, 'unknown_room');
}

function checkJoin(context: EmulatorContext, socket: RealtimeSocket, room: unknown): string {
  if (typeof room !== 'string' || room === '' || room.length > MAX_ROOM_LENGTH) {
    throw new JoinRefused(`A room must be a string of 1 to ${MAX_ROOM_LENGTH} characters`, 'invalid_room');
  }
  if (socket.rooms.size > MAX_ROOMS_PER_SOCKET)
    throw new JoinRefused(`A socket may join at most ${MAX_ROOMS_PER_SOCKET} rooms`, 'too_many_rooms');
  checkRoom(context, socket.data, room);
  return room;
}

/**
 * Re-checks every member of a room before something is delivered to it: a password change, a
 * deleted user or an expired token ends the socket (it is told why, then disconnected); a caller
 * that may no longer follow this one room (a demoted admin) only leaves it.
 */
function evictStale(context: EmulatorContext, io: RealtimeServerIo, room: string): void {
  const members = io.sockets.adapter.rooms.get(room);
  if (!members) return;
  for (const id of [...members]) {
    const socket = io.sockets.sockets.get(id);
    if (!socket) continue;
    try {
      checkRoom(context, socket.data, room);
    } catch (error) {
      if (!(error instanceof JoinRefused)) throw error;
      socket.emit('error', { message: error.message, code: error.code, room });
      if (error.code === 'invalid_token') socket.disconnect(true);
      else void socket.leave(room);
    }
  }
}

export interface RealtimeServer {
  publisher: RealtimePublisher;
  io: RealtimeServerIo;
}

export function attachRealtime(httpServer: HttpServer, context: EmulatorContext): RealtimeServer {
  const io: RealtimeServerIo = new Server(httpServer, {
    path: SOCKET_PATH,
    serveClient: false,
    maxHttpBufferSize: 1_000_000,
    cors: { origin: (origin, callback) => callback(null, origin === undefined || context.corsOrigins.has(origin)) },
    // Browsers do not apply CORS to WebSocket upgrades, so the origin is checked here for both transports.
    // The Host check keeps a DNS-rebinding page out of the socket as it does for HTTP.
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      if (!context.addresses.isAllowedHost(request.headers.host)) return callback('Host not allowed', false);
      const allowed = origin === undefined || context.corsOrigins.has(origin);
      callback(allowed ? null : 'Origin not allowed', allowed);
    },
  });

  io.use((socket: RealtimeSocket, next) => {
    const { app_id: appId, token } = socket.handshake.query;
    const app = typeof appId === 'string' ? context.apps.get(appId) : undefined;
    if (!app) return next(errorWithData(`Unknown app ${String(appId).slice(0, 100)}`, { code: 'app_not_found' }));
    const normalised = normaliseToken(token);
    if (!callerFromToken(context, app, normalised)) {
      return next(errorWithData('The access token is invalid or has expired', { code: 'invalid_token', status: 401 }));
    }
    socket.data = { appId: app.id, token: normalised };
    next();
  });

  io.on('connection', (socket: RealtimeSocket) => {
    socket.on('join', (room: unknown) => {
      try {
        void socket.join(checkJoin(context, socket, room));
      } catch (error) {
        if (!(error instanceof JoinRefused)) throw error;
        socket.emit('error', {
          message: error.message,
          code: error.code,
          room: typeof room === 'string' ? room : null,
        });
      }
    });
    socket.on('leave', (room: unknown) => {
      if (typeof room === 'string') void socket.leave(room);
    });
  });

  const publisher: RealtimePublisher = {
    entityChanged(appId, entity, type, record) {
      const room = `entities:${appId}:${entity}`;
      const timestamp = context.nowIso();
      evictStale(context, io, room);
      for (const id of io.sockets.adapter.rooms.get(room) ?? []) {
        const socket = io.sockets.sockets.get(id);
        const view = socket && entityViewFor(context, socket.data, entity, record);
        if (!socket || !view) continue;
        socket.emit('update_model', { room, data: JSON.stringify({ type, id: record.id, data: view, timestamp }) });
      }
    },
    conversationChanged(conversation, message) {
      const room = `/agent-conversations/${conversation.id}`;
      // The whole conversation, plus the changed message under `_message` as @base44/sdk expects.
      const data = JSON.stringify({ ...conversation, _message: message });
      evictStale(context, io, room);
      io.to(room).emit('update_model', { room, data });
    },
    emitRaw(room, event, payload) {
      // Deliberately untyped: tests inject malformed and oversize payloads to fault-test clients.
      (io as unknown as Server).to(room).emit(event, payload);
      return io.sockets.adapter.rooms.get(room)?.size ?? 0;
    },
    disconnectRoom(room) {
      const count = io.sockets.adapter.rooms.get(room)?.size ?? 0;
      io.in(room).disconnectSockets(true);
      return count;
    },
  };
  return { publisher, io };
}
