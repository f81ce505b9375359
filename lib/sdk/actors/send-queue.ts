/**
 * The bounded queue of messages an actor connection holds while its socket loads, connects or
 * reconnects: used by the connection (actors.ts) and by its socket (actor-socket.lazy.ts).
 */
import { ErrorCodes, PlatformError } from '../core/errors';

/** Unsent messages a connection keeps while its socket loads, connects or reconnects. */
export const MAX_QUEUED_MESSAGES = 1000;

/**
 * Queues `message` for a socket that is not open, or throws `SEND_QUEUE_FULL` when the queue holds
 * {@link MAX_QUEUED_MESSAGES}: an actor that stays unreachable must not make the page's memory grow
 * without end (the reference buffers forever), and the caller learns its message was not queued.
 */
export function enqueueUnsent(queue: string[], message: string): void {
  if (queue.length >= MAX_QUEUED_MESSAGES) {
    throw new PlatformError(
      `The actor connection is not open and already holds ${MAX_QUEUED_MESSAGES} unsent messages; this one was not queued`,
      { code: ErrorCodes.sendQueueFull },
    );
  }
  queue.push(message);
}
