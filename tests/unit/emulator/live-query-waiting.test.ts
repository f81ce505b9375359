/**
 * @jest-environment node
 *
 * What may wait in the live-query work queue (emulator/realtime/live-query-waiting.ts): the queue
 * keeps each request as sent until its turn, and a message may be up to 1 MB, so a count per
 * socket alone let one user's sockets hold gigabytes of requests in waiting.
 */
import {
  MAX_QUEUED_BYTES_PER_CALLER,
  MAX_QUEUED_REQUESTS_PER_SOCKET,
  requestBytes,
  WaitingRequests,
} from '@/emulator/realtime/live-query-waiting';

const MB = 1_000_000;

it("bounds one caller's waiting requests by size, over all its sockets, and frees what left the queue", () => {
  const waiting = new WaitingRequests();
  const fit = Math.floor(MAX_QUEUED_BYTES_PER_CALLER / MB);
  for (let at = 0; at < fit; at += 1) expect(waiting.admit(`socket${at}`, 'user:ana', MB)).toBeUndefined();
  const refused = waiting.admit('another-socket', 'user:ana', MB);
  expect(refused).toMatchObject({ code: 'live_queries_busy' });
  expect(refused?.message).toContain(`at most ${MAX_QUEUED_BYTES_PER_CALLER.toLocaleString('en-US')} may wait`);
  // Another caller waits on its own account.
  expect(waiting.admit('bo-socket', 'user:bo', MB)).toBeUndefined();
  // A request that left the queue gives its bytes back; a refused one had counted nothing.
  waiting.release('socket0', 'user:ana', MB);
  expect(waiting.admit('another-socket', 'user:ana', MB)).toBeUndefined();
  const left = MAX_QUEUED_BYTES_PER_CALLER - fit * MB;
  expect(waiting.admit('socket0', 'user:ana', left + 1)).toMatchObject({ code: 'live_queries_busy' });
  expect(waiting.admit('socket0', 'user:ana', left)).toBeUndefined();
});

it('bounds the requests of one socket by count, whatever their size', () => {
  const waiting = new WaitingRequests();
  for (let at = 0; at < MAX_QUEUED_REQUESTS_PER_SOCKET; at += 1)
    expect(waiting.admit('socket', 'visitor', 100)).toBeUndefined();
  expect(waiting.admit('socket', 'visitor', 100)?.message).toContain(
    `${MAX_QUEUED_REQUESTS_PER_SOCKET.toLocaleString('en-US')} live-query requests of this socket are already waiting`,
  );
  expect(waiting.admit('other-socket', 'visitor', 100)).toBeUndefined();
  waiting.release('socket', 'visitor', 100);
  expect(waiting.admit('socket', 'visitor', 100)).toBeUndefined();
});

it('measures a request as its JSON', () => {
  expect(requestBytes({ app_id: 'a', options: { filter: { title: 'ä' } } })).toBe(
    Buffer.byteLength('{"app_id":"a","options":{"filter":{"title":"ä"}}}'),
  );
  expect(requestBytes(undefined)).toBe(0);
});
