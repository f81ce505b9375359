/**
 * The live queries' direct frame (emulator/realtime/websocket-frame.ts) against real parts: a
 * socket.io server, socket.io-client, and ws's own WebSocket client reading the raw engine.io
 * messages. A packet written directly must arrive as exactly the message engine.io's own write
 * makes of it (all three frame lengths, any text), in the order it was written among engine.io's
 * own messages; when anything is queued, or the client polls, nothing is written and the caller's
 * engine.io write is the way.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { Encoder, PacketType } from 'socket.io-parser';
import WebSocket from 'ws';

import type { RealtimeServerIo, RealtimeSocket } from '@/emulator/realtime/socket-types';
import { messageFrame, openWebSocketOf, writeDirectly } from '@/emulator/realtime/websocket-frame';

let http: HttpServer;
let server: RealtimeServerIo;
let url: string;
const closers: (() => void)[] = [];

beforeAll(async () => {
  http = createServer();
  server = new Server(http, { serveClient: false }) as RealtimeServerIo;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
});
afterAll(async () => {
  await server.close();
});

/** The server's socket of the next connection. */
const nextServerSocket = () => new Promise<RealtimeSocket>((resolve) => server.once('connection', resolve));

/** A socket.io packet of `update_model` as socket.io's encoder makes it. */
function updateModel(data: string): string {
  const [packet] = new Encoder().encode({
    type: PacketType.EVENT,
    nsp: '/',
    data: ['update_model', { room: 'r', data }],
  });
  return packet as string;
}

/** ws's client speaking engine.io 4 by hand: every message it receives, raw, after the namespace is joined. */
async function rawClient(): Promise<{ socket: RealtimeSocket; messages: string[] }> {
  const serverSocket = nextServerSocket();
  const client = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
  closers.push(() => client.terminate());
  const messages: string[] = [];
  client.on('message', (data: Buffer) => messages.push(data.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    client.once('open', resolve);
    client.once('error', reject);
  });
  client.send('40'); // join the main namespace
  const socket = await serverSocket;
  await waitFor(() => messages.some((message) => message.startsWith('40')));
  messages.splice(0);
  return { socket, messages };
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function socketIoClient(
  transport: 'websocket' | 'polling',
): Promise<{ client: ClientSocket; socket: RealtimeSocket }> {
  const serverSocket = nextServerSocket();
  const client = connectClient(url, { transports: [transport], forceNew: true, reconnection: false });
  closers.push(() => client.disconnect());
  return { client, socket: await serverSocket };
}

const TEXTS = {
  'a short one (7-bit length)': 'x',
  'one of 125 bytes with the packet type (the last 7-bit length)': 'y'.repeat(125 - 1 - updateModel('').length),
  'one of 126 bytes (the first 16-bit length)': 'y'.repeat(126 - 1 - updateModel('').length),
  'one over 64 KiB (64-bit length)': 'z'.repeat(70_000),
  'quotes, escapes, umlauts, emoji and separators': 'a "b" \\ c\nÄÖÜ ß „Grüße“ – 😀 \u2028\u2029 \u0000',
};

describe('writeDirectly', () => {
  it.each(Object.entries(TEXTS))('delivers %s exactly as engine.io writes it', async (_, text) => {
    const { socket, messages } = await rawClient();
    const packet = updateModel(text);
    socket.conn.write(packet);
    await waitFor(() => messages.length === 1);
    expect(writeDirectly(socket, packet)).toBe(true);
    await waitFor(() => messages.length === 2);
    expect(messages[1]).toBe(messages[0]);
    expect(messages[1]).toBe(`4${packet}`);
  });

  it('keeps the order of messages interleaved with socket.io emits (falling back while engine.io writes)', async () => {
    const { client, socket } = await socketIoClient('websocket');
    const received: string[] = [];
    client.on('update_model', ({ data }: { data: string }) => received.push(data));
    const sent: string[] = [];
    const ways = { direct: 0, engine: 0 };
    for (let at = 0; at < 200; at += 1) {
      const data = `${at} ${'ä'.repeat(at * 10)}`;
      sent.push(data);
      if (at % 7 === 0) socket.emit('update_model', { room: 'r', data });
      else if (writeDirectly(socket, updateModel(data))) ways.direct += 1;
      else {
        ways.engine += 1;
        socket.conn.write(updateModel(data));
      }
      if (at % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    await waitFor(() => received.length === sent.length);
    expect(received).toEqual(sent);
    // Both ways were taken: directly when idle, through engine.io right after an emit in the same turn.
    expect(ways.direct).toBeGreaterThan(0);
    expect(ways.engine).toBeGreaterThan(0);
  });

  it('writes nothing while engine.io has a write in flight', async () => {
    const { socket, messages } = await rawClient();
    socket.emit('update_model', { room: 'r', data: 'first' });
    expect(openWebSocketOf(socket)).toBeUndefined();
    expect(writeDirectly(socket, updateModel('second'))).toBe(false);
    await waitFor(() => messages.length === 1);
    await waitFor(() => openWebSocketOf(socket) !== undefined);
    expect(messages).toHaveLength(1);
  });

  it('writes nothing to a client that polls', async () => {
    const { client, socket } = await socketIoClient('polling');
    await waitFor(() => client.connected);
    expect(socket.conn.transport.name).toBe('polling');
    expect(writeDirectly(socket, updateModel('polled'))).toBe(false);
  });

  it('writes nothing once the connection closed', async () => {
    const { client, socket } = await socketIoClient('websocket');
    await waitFor(() => client.connected);
    client.disconnect();
    await waitFor(() => socket.disconnected);
    expect(writeDirectly(socket, updateModel('late'))).toBe(false);
  });
});

describe('messageFrame', () => {
  it.each([
    [0, 2],
    [124, 2],
    [125, 4],
    [65_534, 4],
    [65_535, 10],
  ])('frames a packet of %i bytes with a header of %i bytes', (bytes, header) => {
    const frame = messageFrame('p'.repeat(bytes));
    expect(frame.length).toBe(header + 1 + bytes);
    expect(frame[0]).toBe(0x81);
    expect(String.fromCharCode(frame[header] as number)).toBe('4');
  });
});
