import { JoinRefused } from './access';
import { MAX_OPTION_BYTES } from './live-query-request';

/**
 * Live-query requests waiting in the work queue (live-queries.ts): the queue keeps each as it was
 * sent until its turn, so what may wait is bounded by count per socket and by size per caller. A
 * message may be up to 1 MB (socket.ts), so the count alone let one user's 50 sockets hold 50 GB
 * of requests in waiting; by size, a caller holds at most {@link MAX_QUEUED_BYTES_PER_CALLER}.
 */

/** Requests of one socket waiting in the queue; beyond this it is told to slow down. */
export const MAX_QUEUED_REQUESTS_PER_SOCKET = 1000;

/**
 * Bytes (as JSON) of one caller's waiting requests: a socket's every request at the largest options
 * a live query may have (with room for the rest of the message), so that no client that sends valid
 * requests from one socket is told to wait; a thousand ordinary ones take about 300 KB.
 */
export const MAX_QUEUED_BYTES_PER_CALLER = MAX_QUEUED_REQUESTS_PER_SOCKET * (MAX_OPTION_BYTES + 1024);

/** A request's size as the queue keeps it (its JSON, UTF-8). */
export function requestBytes(payload: unknown): number {
  return Buffer.byteLength(JSON.stringify(payload) ?? '');
}

const busy = (message: string) => new JoinRefused(message, 'live_queries_busy');

export class WaitingRequests {
  private readonly bySocket = new Map<string, number>();
  private readonly bytesByCaller = new Map<string, number>();

  /** Counts a request in, or answers why it may not wait (nothing is counted then). */
  admit(socketId: string, caller: string, bytes: number): JoinRefused | undefined {
    const waiting = this.bySocket.get(socketId) ?? 0;
    if (waiting >= MAX_QUEUED_REQUESTS_PER_SOCKET)
      return busy(
        `${MAX_QUEUED_REQUESTS_PER_SOCKET.toLocaleString('en-US')} live-query requests of this socket are already waiting; send fewer at once`,
      );
    const callerBytes = (this.bytesByCaller.get(caller) ?? 0) + bytes;
    if (callerBytes > MAX_QUEUED_BYTES_PER_CALLER)
      return busy(
        `This caller's waiting live-query requests would take ${callerBytes.toLocaleString('en-US')} bytes; at most ` +
          `${MAX_QUEUED_BYTES_PER_CALLER.toLocaleString('en-US')} may wait: send fewer at once`,
      );
    this.bySocket.set(socketId, waiting + 1);
    this.bytesByCaller.set(caller, callerBytes);
    return undefined;
  }

  /** A request admitted with these figures left the queue (it ran, or found its socket gone). */
  release(socketId: string, caller: string, bytes: number): void {
    const waiting = (this.bySocket.get(socketId) ?? 1) - 1;
    if (waiting > 0) this.bySocket.set(socketId, waiting);
    else this.bySocket.delete(socketId);
    const callerBytes = (this.bytesByCaller.get(caller) ?? bytes) - bytes;
    if (callerBytes > 0) this.bytesByCaller.set(caller, callerBytes);
    else this.bytesByCaller.delete(caller);
  }
}
