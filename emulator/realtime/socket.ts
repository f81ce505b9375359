import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';

import { callerFromToken, normaliseToken, type Caller } from '../auth/caller';
import type { EmulatorContext, RealtimePublisher } from '../instance/context';
import { checkRoom, entityViewFor, JoinRefused, type SocketState } from './access';
import { addTo, takeFrom } from './caller-tally';
import { LiveQueries } from './live-queries';
import type { RealtimeServerIo, RealtimeSocket } from './socket-types';

/**
 * Real-time over socket.io at `/ws-user-apps/socket.io/`. The handshake names the app (`app_id`)
 * and optionally a token; a bad app or token fails the connection. Live queries (`subscribe_query`)
 * are live-queries.ts. Rooms are joined with `join`:
 * `entities:{appId}:{Entity}` and `/agent-conversations/{id}`, each checked against the same rules
 * as the HTTP API. Every acknowledged change is broadcast as `update_model` `{ room, data }` where
 * `data` is a JSON string, exactly what @base44/sdk parses. Entity changes go to each socket on its
 * own, as its caller may see the record (emulator/model/security.ts): a record it may not read is
 * not sent, a field it may not read is left out.
 */

export const SOCKET_PATH = '/ws-user-apps/socket.io/';
const MAX_ROOMS_PER_SOCKET = 100;
/** Open sockets of one signed-in user in one app (visitors and the service role are not counted). */
export const MAX_SOCKETS_PER_USER = 50;
const MAX_ROOM_LENGTH = 300;

function errorWithData(message: string, data: Record<string, unknown>): Error & { data: Record<string, unknown> } {
  return Object.assign(new Error(message), { data });
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
  liveQueries: LiveQueries;
}

function createIo(httpServer: HttpServer, context: EmulatorContext): RealtimeServerIo {
  return new Server(httpServer, {
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
}

function ownerOf(caller: Caller, socketId: string): string {
  if (caller.kind === 'user') return `user:${caller.account.id}`;
  return caller.kind === 'service' ? 'service' : `anonymous:${socketId}`;
}

/** Sockets open per signed-in user and app, so one user cannot open them without end. */
class SocketCounts {
  private readonly open = new Map<string, number>();

  private static key(state: SocketState): string | undefined {
    return state.owner.startsWith('user:') ? `${state.appId}\u0000${state.owner}` : undefined;
  }

  full(state: SocketState): boolean {
    const key = SocketCounts.key(state);
    return key !== undefined && (this.open.get(key) ?? 0) >= MAX_SOCKETS_PER_USER;
  }

  opened(state: SocketState): void {
    const key = SocketCounts.key(state);
    if (key !== undefined) addTo(this.open, key, 1);
  }

  closed(state: SocketState): void {
    const key = SocketCounts.key(state);
    if (key !== undefined) takeFrom(this.open, key, 1);
  }
}

/** The handshake names the app and maybe a token; a bad one fails the connection. */
function authenticate(
  context: EmulatorContext,
  counts: SocketCounts,
  socket: RealtimeSocket,
  next: (error?: Error) => void,
): void {
  const { app_id: appId, token } = socket.handshake.query;
  const app = typeof appId === 'string' ? context.apps.get(appId) : undefined;
  if (!app) return next(errorWithData(`Unknown app ${String(appId).slice(0, 100)}`, { code: 'app_not_found' }));
  const normalised = normaliseToken(token);
  const caller = callerFromToken(context, app, normalised);
  if (!caller) {
    return next(errorWithData('The access token is invalid or has expired', { code: 'invalid_token', status: 401 }));
  }
  const state: SocketState = { appId: app.id, token: normalised, owner: ownerOf(caller, socket.id) };
  if (counts.full(state)) {
    const message = `A user may have at most ${MAX_SOCKETS_PER_USER} sockets open; close others first`;
    return next(errorWithData(message, { code: 'too_many_sockets', status: 429 }));
  }
  socket.data = state;
  next();
}

function listen(context: EmulatorContext, socket: RealtimeSocket, liveQueries: LiveQueries): void {
  socket.on('join', (room: unknown) => {
    try {
      void socket.join(checkJoin(context, socket, room));
    } catch (error) {
      if (!(error instanceof JoinRefused)) throw error;
      socket.emit('error', { message: error.message, code: error.code, room: typeof room === 'string' ? room : null });
    }
  });
  socket.on('leave', (room: unknown) => {
    if (typeof room === 'string') void socket.leave(room);
  });
  socket.on('subscribe_query', (payload: unknown) => liveQueries.subscribe(socket, payload));
  socket.on('unsubscribe_query', (payload: unknown) => liveQueries.unsubscribe(socket, payload));
  socket.on('disconnect', () => liveQueries.dropSocket(socket.id));
}

/** The sockets in a room: its socket.io members, or the holders of a live query's room. */
function socketsIn(io: RealtimeServerIo, liveQueries: LiveQueries, room: string): RealtimeSocket[] {
  const ids = [...(io.sockets.adapter.rooms.get(room) ?? []), ...liveQueries.socketsIn(room)];
  return ids.flatMap((id) => io.sockets.sockets.get(id) ?? []);
}

function createPublisher(context: EmulatorContext, io: RealtimeServerIo, liveQueries: LiveQueries): RealtimePublisher {
  return {
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
      liveQueries.entityChanged(appId, entity, type, record);
    },
    conversationChanged(conversation, message) {
      const room = `/agent-conversations/${conversation.id}`;
      // The whole conversation, plus the changed message under `_message` as @base44/sdk expects.
      const data = JSON.stringify({ ...conversation, _message: message });
      evictStale(context, io, room);
      io.to(room).emit('update_model', { room, data });
    },
    emitRaw(room, event, payload) {
      const sockets = socketsIn(io, liveQueries, room);
      // Deliberately untyped: tests inject malformed and oversize payloads to fault-test clients.
      for (const socket of sockets)
        (socket as unknown as { emit(event: string, payload: unknown): void }).emit(event, payload);
      return sockets.length;
    },
    disconnectRoom(room) {
      const sockets = socketsIn(io, liveQueries, room);
      for (const socket of sockets) socket.disconnect(true);
      return sockets.length;
    },
    dropRoom(room) {
      const sockets = socketsIn(io, liveQueries, room);
      // Closing the engine.io connection, not the socket: the client sees "transport close" and retries.
      for (const socket of sockets) socket.conn.close();
      return sockets.length;
    },
  };
}

export function attachRealtime(httpServer: HttpServer, context: EmulatorContext): RealtimeServer {
  const io = createIo(httpServer, context);
  const liveQueries = new LiveQueries(context, (id) => io.sockets.sockets.get(id));
  const counts = new SocketCounts();
  io.use((socket: RealtimeSocket, next) => authenticate(context, counts, socket, next));
  io.on('connection', (socket: RealtimeSocket) => {
    counts.opened(socket.data);
    socket.on('disconnect', () => counts.closed(socket.data));
    listen(context, socket, liveQueries);
  });
  return { publisher: createPublisher(context, io, liveQueries), io, liveQueries };
}
