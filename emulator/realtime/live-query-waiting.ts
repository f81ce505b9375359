import { JoinRefused } from './access';
import { addTo, CallerAppTally, takeFrom } from './caller-tally';
import { formatCount } from './live-query-budget';
import { MAX_OPTION_BYTES } from './live-query-request';

/**
 * Live-query requests waiting in the work queue (live-queries.ts): the queue keeps each as it was
 * sent until its turn, so what may wait is bounded by count per socket and by size per caller and
 * per app. A message may be up to 1 MB (socket.ts), so the count alone let one user's 50 sockets
 * hold 50 GB of requests in waiting, and visitors' sockets (not counted per user) more.
 */

/** Requests of one socket waiting in the queue; beyond this it is told to slow down. */
export const MAX_QUEUED_REQUESTS_PER_SOCKET = 1000;

/**
 * Bytes (as JSON) of one caller's waiting requests in one app: a socket's every request at the
 * largest options a live query may have (with room for the rest of the message), so that no client
 * that sends valid requests from one socket is told to wait; a thousand ordinary ones take about
 * 300 KB.
 */
export const MAX_QUEUED_BYTES_PER_CALLER = MAX_QUEUED_REQUESTS_PER_SOCKET * (MAX_OPTION_BYTES + 1024);

/** Bytes of all waiting requests in one app: five callers' worth, as with live rows (live-query-budget.ts). */
export const MAX_QUEUED_BYTES_PER_APP = 5 * MAX_QUEUED_BYTES_PER_CALLER;

/** A request's size as the queue keeps it (its JSON, UTF-8). */
export function requestBytes(payload: unknown): number {
  return Buffer.byteLength(JSON.stringify(payload) ?? '');
}

const busy = (message: string) => new JoinRefused(message, 'live_queries_busy');

/** Who sent a waiting request, and its size. */
export interface WaitingRequest {
  socketId: string;
  appId: string;
  /** The caller it counts against (socket.ts: a user, the service role, or one visitor's socket). */
  owner: string;
  bytes: number;
}

export class WaitingRequests {
  private readonly bySocket = new Map<string, number>();
  private readonly bytes = new CallerAppTally(MAX_QUEUED_BYTES_PER_CALLER, MAX_QUEUED_BYTES_PER_APP);

  /** Counts a request in, or answers why it may not wait (nothing is counted then). */
  admit({ socketId, appId, owner, bytes }: WaitingRequest): JoinRefused | undefined {
    if ((this.bySocket.get(socketId) ?? 0) >= MAX_QUEUED_REQUESTS_PER_SOCKET)
      return busy(
        `${formatCount(MAX_QUEUED_REQUESTS_PER_SOCKET)} live-query requests of this socket are already waiting; send fewer at once`,
      );
    const refused = this.bytes.add(appId, owner, bytes);
    if (refused?.over === 'caller')
      return busy(
        `This caller's waiting live-query requests would take ${formatCount(refused.total)} bytes; at most ` +
          `${formatCount(MAX_QUEUED_BYTES_PER_CALLER)} may wait: send fewer at once`,
      );
    if (refused)
      return busy(
        `The app's waiting live-query requests would take ${formatCount(refused.total)} bytes; at most ` +
          `${formatCount(MAX_QUEUED_BYTES_PER_APP)} may wait for all callers together: send fewer at once`,
      );
    addTo(this.bySocket, socketId, 1);
    return undefined;
  }

  /** A request admitted with these figures left the queue (it ran, or found its socket gone). */
  release({ socketId, appId, owner, bytes }: WaitingRequest): void {
    takeFrom(this.bySocket, socketId, 1);
    this.bytes.release(appId, owner, bytes);
  }
}
