import type { RealtimeSocket } from './socket-types';

/**
 * Writes one socket.io packet to a client as a single WebSocket frame, straight to the connection's
 * TCP socket, when nothing is queued at any layer in between; else answers false and the caller
 * writes it through engine.io (`socket.conn.write`), which is always correct.
 *
 * Why: a live query's change reaches every watching socket, one message each (a create at the top
 * of a window watched by 50 sockets is 50 messages). Through engine.io each message is a packet
 * object, three events, an encoding step, ws's framing into a header and a payload, and a corked
 * write of the two; measured, that took about as long as the kernel's own send (docs/PERFORMANCE.md,
 * "What a watched write costs"). The bytes on the wire are the same (engine.io's message packet `4`
 * and the packet's text, in one unmasked text frame with FIN set: RFC 6455, section 5.2), so clients
 * see no difference (tests/integration/emulator/realtime/websocket-frame.test.ts).
 *
 * "Nothing queued" keeps the order of every message of the connection: engine.io's own write buffer
 * is empty and its transport writable (nothing of its own in flight), the transport is ws's
 * WebSocket and open, ws's sender idle with an empty queue and no extension negotiated (a
 * compressed connection would need its frames compressed). engine.io 6 and ws 8 keep these as
 * fields without a public API; {@link openWebSocketOf} reads them defensively, so a version that
 * changed them only costs the fast path, never a message.
 */

/** engine.io's packet type of a message (engine.io-parser: `4`). */
const MESSAGE_PACKET = '4';
/** ws's `WebSocket.OPEN`, and its sender's idle state (ws 8: `DEFAULT`). */
const WS_OPEN = 1;
const SENDER_IDLE = 0;

interface TcpSocket {
  writable: boolean;
  write(frame: Buffer): boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The TCP socket under an open WebSocket transport with nothing queued, or undefined. */
export function openWebSocketOf(socket: RealtimeSocket): TcpSocket | undefined {
  const connection: unknown = socket.conn;
  if (!isRecord(connection) || connection.readyState !== 'open') return undefined;
  const { transport, writeBuffer } = connection;
  if (!Array.isArray(writeBuffer) || writeBuffer.length > 0) return undefined;
  if (!isRecord(transport) || transport.name !== 'websocket' || transport.writable !== true) return undefined;
  const webSocket = transport.socket;
  if (!isRecord(webSocket) || webSocket.readyState !== WS_OPEN) return undefined;
  const { _sender: sender, _extensions: extensions, _socket: tcp } = webSocket;
  if (!isRecord(extensions) || Object.keys(extensions).length > 0) return undefined;
  if (!isRecord(sender) || sender._state !== SENDER_IDLE) return undefined;
  if (!Array.isArray(sender._queue) || sender._queue.length > 0) return undefined;
  if (!isRecord(tcp) || tcp.writable !== true || typeof tcp.write !== 'function') return undefined;
  return tcp as unknown as TcpSocket;
}

/** The WebSocket frame of an engine.io message holding `packet`: header, `4`, the packet's UTF-8. */
export function messageFrame(packet: string): Buffer {
  const length = 1 + Buffer.byteLength(packet, 'utf8');
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, text
  if (headerLength === 2) frame[1] = length;
  else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(MESSAGE_PACKET, headerLength, 'latin1');
  frame.write(packet, headerLength + 1, 'utf8');
  return frame;
}

/** Writes `packet` (an encoded socket.io packet) to the socket as one frame if nothing is queued; false if not written. */
export function writeDirectly(socket: RealtimeSocket, packet: string): boolean {
  const tcp = openWebSocketOf(socket);
  if (!tcp) return false;
  tcp.write(messageFrame(packet));
  return true;
}
