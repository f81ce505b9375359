/**
 * Watches the emulator's socket.io server from the inside, so tests can assert what the SERVER saw:
 * which sockets connected (with which token) and every `join`/`leave` and `subscribe_query`/
 * `unsubscribe_query` packet each one sent, duplicates included. The emulator exposes no such hook (RunningEmulator has no io handle, and the
 * `/api/_emulator/rooms/:room/emit` tool reports only current room sizes, where a duplicate join is
 * invisible), so a test file swaps socket.io's `Server` for a subclass that records as it goes:
 *
 *   jest.mock('socket.io', () => jest.requireActual<typeof import('./server-observer')>('./server-observer').recordingSocketIo());
 *
 * The subclass changes no behaviour: it adds listeners before the emulator adds its own.
 */
import type * as SocketIo from 'socket.io';

export interface ServerEvent {
  /** Which server instance (0 = the first started in this test file; a restart makes a new one). */
  server: number;
  socketId: string;
  /** handshake: every connection attempt that reached socket.io, refused ones included. */
  kind: 'handshake' | 'connect' | 'disconnect' | 'join' | 'leave' | 'subscribe_query' | 'unsubscribe_query';
  /** The room of a join or leave; a live query's room (`entities:{app}:{Entity}:watch:{id}`). */
  room?: string;
  /** The handshake token of a handshake or connect. */
  token?: string;
  /** The request path and query of a handshake, as the server received it. */
  url?: string;
  /** performance.now() when the server saw it. */
  at: number;
}

const events: ServerEvent[] = [];

/** The room a live query message names, as the server builds it. */
function queryRoom(payload: unknown): string {
  const { app_id: app, entity_name: entity, query_id: id } = (payload ?? {}) as Record<string, unknown>;
  return `entities:${String(app)}:${String(entity)}:watch:${String(id)}`;
}
let servers = 0;

/** The socket.io module with a recording `Server`; call only from a jest.mock factory. */
export function recordingSocketIo(): typeof SocketIo {
  const actual = jest.requireActual<typeof SocketIo>('socket.io');
  class RecordingServer extends actual.Server {
    constructor(...args: ConstructorParameters<typeof actual.Server>) {
      super(...args);
      const server = servers;
      servers += 1;
      // Registered before the emulator's own middleware, so refused handshakes are seen too.
      this.use((socket, next) => {
        const token = socket.handshake.query.token;
        events.push({
          server,
          socketId: socket.id,
          kind: 'handshake',
          token: typeof token === 'string' ? token : undefined,
          url: socket.handshake.url,
          at: performance.now(),
        });
        next();
      });
      this.on('connection', (socket: SocketIo.Socket) => {
        const token = socket.handshake.query.token;
        const record = (kind: ServerEvent['kind'], extra: Partial<ServerEvent> = {}) =>
          events.push({ server, socketId: socket.id, kind, at: performance.now(), ...extra });
        record('connect', { token: typeof token === 'string' ? token : undefined });
        socket.onAny((event: string, room: unknown) => {
          if ((event === 'join' || event === 'leave') && typeof room === 'string') record(event, { room });
          if (event === 'subscribe_query' || event === 'unsubscribe_query') record(event, { room: queryRoom(room) });
        });
        socket.on('disconnect', () => record('disconnect'));
      });
    }
  }
  return { ...actual, Server: RecordingServer } as typeof SocketIo;
}

/** Everything the servers saw, optionally narrowed. */
export function serverEvents(
  filter: Partial<Pick<ServerEvent, 'server' | 'kind' | 'room' | 'socketId'>> = {},
): ServerEvent[] {
  return events.filter((event) =>
    Object.entries(filter).every(([field, value]) => event[field as keyof ServerEvent] === value),
  );
}

/** Joins and leaves of a room (subscribes and unsubscribes of a live query's room), in order. */
export function roomHistory(room: string, server?: number): ServerEvent['kind'][] {
  return events
    .filter((event) => event.room === room && (server === undefined || event.server === server))
    .map((event) => event.kind);
}

/** The number of server instances created so far (the latest one is `serverCount() - 1`). */
export function serverCount(): number {
  return servers;
}
