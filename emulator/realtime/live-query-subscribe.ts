import { JoinRefused, refusalOf } from './access';
import { definitionOf } from './live-query-access';
import { dropSubscription, isRefusal, openWindow, watchRoom, windowKeyOf, type LiveQueryCore } from './live-query-core';
import { updateWindow } from './live-query-delivery';
import { parseLiveQueryRequest, parseQueryAddress, watchSize, type QueryAddress } from './live-query-request';
import type { LiveWindow } from './live-query-window';
import type { RealtimeSocket } from './socket-types';

/**
 * `subscribe_query` and `unsubscribe_query`, as units of the work queue (in the order the socket
 * sent them). A subscription joins the window of its query and view when one is open (no reading
 * at all), else opens it with one reading; its rows count against the budget before anything is read.
 */

export const MAX_QUERIES_PER_SOCKET = 1000;

/** The window a new subscription joins: the open one (read again first if stale), or a new one. */
function windowFor(
  core: LiveQueryCore,
  request: Parameters<typeof openWindow>[1],
  access: Parameters<typeof openWindow>[2],
  lane: string,
): LiveWindow {
  const open = core.index.window(windowKeyOf(request, access.viewKey));
  if (!open) return openWindow(core, request, access, lane);
  // Read with other rules (the entity files changed since): read again before anyone joins it.
  if (open.definition !== definitionOf(core.context, request.appId, request.entity)) open.stale = true;
  if (open.stale) updateWindow(core, open);
  // The update may have ended its watches (and closed it): then it is opened anew.
  return core.index.window(open.key) ?? openWindow(core, request, access, lane);
}

/** `subscribe_query`: answers `subscribed` with the first result, or `error` naming the room. */
export function subscribeQuery(core: LiveQueryCore, socket: RealtimeSocket, payload: unknown): void {
  let room: string | null = null;
  try {
    const address = parseQueryAddress(payload);
    room = watchRoom(address);
    const request = parseLiveQueryRequest(payload, address);
    const { appId, entity, queryId } = request;
    const access = core.access.check(socket, appId, entity);
    if (access instanceof JoinRefused) throw access;
    // The same query id again replaces the subscription: that is how a client resyncs.
    const previous = core.index.find(socket.id, queryId);
    if (previous) dropSubscription(core, previous);
    else if (core.index.countOf(socket.id) >= MAX_QUERIES_PER_SOCKET)
      throw new JoinRefused(`A socket may hold at most ${MAX_QUERIES_PER_SOCKET} live queries`, 'too_many_queries');
    const owner = socket.data.owner;
    core.budget.reserve(appId, owner, watchSize(request));
    let window: LiveWindow;
    try {
      window = windowFor(core, request, access, owner);
    } catch (error) {
      core.budget.release(appId, owner, watchSize(request));
      throw error;
    }
    core.index.add({
      socketId: socket.id,
      owner,
      request,
      room,
      seq: 0,
      window,
      version: window.version,
      held: window.shown,
    });
    socket.emit('subscribed', {
      room,
      entity_name: entity,
      query_id: queryId,
      options: request.options,
      seq: 0,
      entities: window.shown.map((row) => row.record),
      timestamp: core.context.nowIso(),
    });
  } catch (error) {
    if (!isRefusal(error)) throw error;
    socket.emit('error', { ...refusalOf(error), room });
  }
}

/** `unsubscribe_query`: forgets the query and confirms with `unsubscribed`. */
export function unsubscribeQuery(core: LiveQueryCore, socket: RealtimeSocket, payload: unknown): void {
  let address: QueryAddress;
  try {
    address = parseQueryAddress(payload);
  } catch (error) {
    if (!(error instanceof JoinRefused)) throw error;
    socket.emit('error', { ...refusalOf(error), room: null });
    return;
  }
  const room = watchRoom(address);
  const subscription = core.index.find(socket.id, address.queryId);
  if (subscription?.room === room) dropSubscription(core, subscription);
  socket.emit('unsubscribed', { room, entity_name: address.entity, query_id: address.queryId });
}
