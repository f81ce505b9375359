/**
 * @jest-environment node
 *
 * What may wait in the live-query work queue (emulator/realtime/live-query-waiting.ts): the queue
 * keeps each request as sent until its turn, and a message may be up to 1 MB, so a count per
 * socket alone let one user's sockets hold gigabytes of requests in waiting.
 */
import {
  MAX_QUEUED_BYTES_PER_APP,
  MAX_QUEUED_BYTES_PER_CALLER,
  MAX_QUEUED_REQUESTS_PER_SOCKET,
  requestBytes,
  WaitingRequests,
} from '@/emulator/realtime/live-query-waiting';

const MB = 1_000_000;
const request = (socketId: string, owner: string, bytes: number, appId = 'app') => ({ socketId, appId, owner, bytes });

it("bounds one caller's waiting requests by size, over all its sockets, and frees what left the queue", () => {
  const waiting = new WaitingRequests();
  const fit = Math.floor(MAX_QUEUED_BYTES_PER_CALLER / MB);
  for (let at = 0; at < fit; at += 1) expect(waiting.admit(request(`socket${at}`, 'user:ana', MB))).toBeUndefined();
  const refused = waiting.admit(request('another-socket', 'user:ana', MB));
  expect(refused).toMatchObject({ code: 'live_queries_busy' });
  expect(refused?.message).toContain(`at most ${MAX_QUEUED_BYTES_PER_CALLER.toLocaleString('en-US')} may wait`);
  // Another caller waits on its own account.
  expect(waiting.admit(request('bo-socket', 'user:bo', MB))).toBeUndefined();
  // A request that left the queue gives its bytes back; a refused one had counted nothing.
  waiting.release(request('socket0', 'user:ana', MB));
  expect(waiting.admit(request('another-socket', 'user:ana', MB))).toBeUndefined();
  const left = MAX_QUEUED_BYTES_PER_CALLER - fit * MB;
  expect(waiting.admit(request('socket0', 'user:ana', left + 1))).toMatchObject({ code: 'live_queries_busy' });
  expect(waiting.admit(request('socket0', 'user:ana', left))).toBeUndefined();
});

it("bounds all callers' waiting requests in one app by size: visitors' sockets each count alone", () => {
  const waiting = new WaitingRequests();
  const perVisitor = MAX_QUEUED_BYTES_PER_CALLER;
  const visitors = Math.floor(MAX_QUEUED_BYTES_PER_APP / perVisitor);
  for (let at = 0; at < visitors; at += 1)
    expect(waiting.admit(request(`visitor${at}`, `socket:visitor${at}`, perVisitor))).toBeUndefined();
  const refused = waiting.admit(request('late', 'socket:late', MB));
  expect(refused?.message).toContain("The app's waiting live-query requests");
  // Another app waits on its own account, and so does the same user there.
  expect(waiting.admit(request('elsewhere', 'socket:visitor0', MB, 'other-app'))).toBeUndefined();
  waiting.release(request('visitor0', 'socket:visitor0', perVisitor));
  expect(waiting.admit(request('late', 'socket:late', MB))).toBeUndefined();
});

it('bounds the requests of one socket by count, whatever their size', () => {
  const waiting = new WaitingRequests();
  for (let at = 0; at < MAX_QUEUED_REQUESTS_PER_SOCKET; at += 1)
    expect(waiting.admit(request('socket', 'visitor', 100))).toBeUndefined();
  expect(waiting.admit(request('socket', 'visitor', 100))?.message).toContain(
    `${MAX_QUEUED_REQUESTS_PER_SOCKET.toLocaleString('en-US')} live-query requests of this socket are already waiting`,
  );
  expect(waiting.admit(request('other-socket', 'visitor', 100))).toBeUndefined();
  waiting.release(request('socket', 'visitor', 100));
  expect(waiting.admit(request('socket', 'visitor', 100))).toBeUndefined();
});

it('measures a request as its JSON', () => {
  expect(requestBytes({ app_id: 'a', options: { filter: { title: 'ä' } } })).toBe(
    Buffer.byteLength('{"app_id":"a","options":{"filter":{"title":"ä"}}}'),
  );
  expect(requestBytes(undefined)).toBe(0);
});
