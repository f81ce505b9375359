/**
 * The recording platform both clients talk to: the SDK suites' recording HTTP server plus a socket.io
 * server on the platform's path that records each handshake, every join and leave, and can push an
 * `update_model` into a room.
 */
import { Server as SocketServer } from 'socket.io';
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

export interface RecordingPlatform {
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
  const io = new SocketServer(http.httpServer, { path: '/ws-user-apps/socket.io/', cors: { origin: '*' } });
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
      io.disconnectSockets(true);
    },
    async close() {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await http.close().catch(() => undefined);
    },
  };
}
