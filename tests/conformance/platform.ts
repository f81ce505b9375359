/**
 * The recording platform both clients talk to: the SDK suites' recording HTTP server plus a socket.io
 * server on the platform's path that records each handshake, every join and leave, and can push an
 * `update_model` into a room.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server as SocketServer } from 'socket.io';
import { WebSocketServer, type WebSocket } from 'ws';

import { startRecordingServer, type RecordingServer } from '@/tests/integration/sdk/recording-server';

export interface SocketEvent {
  /** Index of the connection (0 = first handshake of this run). */
  connection: number;
  event: 'join' | 'leave';
  room: string;
}

export interface Handshake {
  /** The handshake query without engine.io's own EIO/transport/t parameters. */
  query: Record<string, string>;
}

/** One actor WebSocket: the decoded path and query it opened, and what it sent (pings left out). */
export interface ActorSocketLog {
  path: string[];
  query: [string, string][];
  received: unknown[];
}

export interface RecordingPlatform {
  /** WebSockets opened on any other path (actors). */
  actorSockets: ActorSocketLog[];
  /** Sends `data` (as JSON) to every open actor socket. */
  sendToActors(data: unknown): void;
  /** ws:// address of this server. */
  wsUrl: string;
  http: RecordingServer;
  url: string;
  handshakes: Handshake[];
  socketEvents: SocketEvent[];
  /** Sends `update_model` `{ room, data }` to every socket in the room; resolves with how many got it. */
  push(room: string, data: string): Promise<number>;
  /** Forgets everything recorded so far (the next run starts clean). */
  reset(): void;
  close(): Promise<void>;
}

const ENGINE_PARAMS = new Set(['EIO', 'transport', 't', 'j', 'b64', 'sid']);

export async function startRecordingPlatform(): Promise<RecordingPlatform> {
  const http = await startRecordingServer();
  // destroyUpgrade: false leaves other paths' upgrades to the actor server below.
  const io = new SocketServer(http.httpServer, {
    path: '/ws-user-apps/socket.io/',
    cors: { origin: '*' },
    destroyUpgrade: false,
  });
  const actorServer = new WebSocketServer({ noServer: true });
  const actorSockets: ActorSocketLog[] = [];
  const openActorSockets = new Set<WebSocket>();
  http.httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (request.url?.startsWith('/ws-user-apps/')) return;
    actorServer.handleUpgrade(request, socket, head, (ws) => {
      const url = new URL(request.url ?? '/', 'http://platform.invalid');
      const log: ActorSocketLog = {
        path: url.pathname.split('/').slice(1).map(decodeURIComponent),
        query: [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b)),
        received: [],
      };
      actorSockets.push(log);
      openActorSockets.add(ws);
      ws.on('message', (raw: Buffer) => {
        const data = JSON.parse(raw.toString('utf8')) as { type?: unknown };
        if (data.type === '__ping') ws.send(JSON.stringify({ type: '__pong' }));
        else log.received.push(data);
      });
      ws.on('close', () => openActorSockets.delete(ws));
    });
  });
  const handshakes: Handshake[] = [];
  const socketEvents: SocketEvent[] = [];
  io.on('connection', (socket) => {
    const connection = handshakes.length;
    const query: Record<string, string> = {};
    for (const [name, value] of Object.entries(socket.handshake.query)) {
      if (!ENGINE_PARAMS.has(name) && typeof value === 'string') query[name] = value;
    }
    handshakes.push({ query });
    socket.on('join', (room: unknown) => {
      if (typeof room !== 'string') return;
      socketEvents.push({ connection, event: 'join', room });
      void socket.join(room);
    });
    socket.on('leave', (room: unknown) => {
      if (typeof room !== 'string') return;
      socketEvents.push({ connection, event: 'leave', room });
      void socket.leave(room);
    });
  });
  return {
    http,
    url: http.url,
    wsUrl: http.url.replace(/^http/, 'ws'),
    actorSockets,
    sendToActors(data) {
      for (const ws of openActorSockets) ws.send(JSON.stringify(data));
    },
    handshakes,
    socketEvents,
    async push(room, data) {
      const members = await io.in(room).fetchSockets();
      io.to(room).emit('update_model', { room, data });
      return members.length;
    },
    reset() {
      http.requests.length = 0;
      handshakes.length = 0;
      socketEvents.length = 0;
      actorSockets.length = 0;
      for (const ws of openActorSockets) ws.terminate();
      io.disconnectSockets(true);
    },
    async close() {
      for (const ws of openActorSockets) ws.terminate();
      actorServer.close();
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await http.close().catch(() => undefined);
    },
  };
}
