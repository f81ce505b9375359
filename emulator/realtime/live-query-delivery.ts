import { DEFAULT_QUERY_BUDGET_MS, withOwnQueryBudget } from '../query/budget';
import { JoinRefused } from './access';
import { definitionOf, type Access } from './live-query-access';
import {
  dropSubscription,
  endQueries,
  isRefusal,
  openWindow,
  windowKeyOf,
  type LiveQueryCore,
} from './live-query-core';
import { changeType, diffResults } from './live-query-diff';
import { windowReader } from './live-query-evaluation';
import type { Subscription } from './live-query-index';
import { packetText, updatePacket, updateText, type UpdateText } from './live-query-message';
import { RESYNC, type Cause, type HeldChange, type LiveWindow, type WindowChange } from './live-query-window';
import type { RealtimeSocket } from './socket-types';

/**
 * A window's update and its delivery (docs/LIVE-QUERIES.md): the window is brought up to date once
 * for all its watches, and each watch whose client holds the previous result gets the same edit
 * (one text, its own `query_id` and `seq`). Before each delivery the subscriber is checked again:
 * one that lost access is ended, one that now sees differently moves to the window of its new view.
 * Large fan-outs go out in chunks of {@link FANOUT_CHUNK}, each a unit of the work queue.
 */

export const FANOUT_CHUNK = 64;

function describeCause(window: LiveWindow, { type, id }: Cause): string {
  return type === 'resync' ? `resync of ${window.entity}` : `${type} of ${window.entity} ${id}`;
}

/**
 * Sends one watch its `update_model`, encoded from the change's escaped text (`escaped`: see
 * packetText) and written to the connection as socket.emit does once it has encoded a packet
 * (socket.io 4.8: Client._packet, which skips a connection that is not open, then conn.write).
 * Only valid without socket.io's connection-state recovery, under which emit also stores the
 * packet: createIo does not enable it.
 */
function send(socket: RealtimeSocket, subscription: Subscription, escaped: UpdateText): void {
  subscription.seq += 1;
  if (!socket.connected || socket.conn.readyState !== 'open') return;
  socket.conn.write(updatePacket(escaped, subscription.room, subscription.request.queryId, subscription.seq));
}

/** Brings a subscriber that missed edits (a failed delivery, a move) to its window's result at once. */
function catchUp(core: LiveQueryCore, subscription: Subscription, socket: RealtimeSocket, cause: Cause): void {
  const { window } = subscription;
  const edit = diffResults(subscription.held, window.shown);
  if (edit) {
    const held = new Set(subscription.held.map((row) => row.id));
    const type = changeType(held, new Set(window.shown.map((row) => row.id)), cause.id, edit);
    const data = cause.id === undefined ? undefined : window.shown.find((row) => row.id === cause.id);
    const text = updateText({ cause, changeType: type, data, edit, timestamp: core.context.nowIso() });
    send(socket, subscription, packetText(text));
  }
  subscription.version = window.version;
  subscription.held = window.shown;
}

/** Moves a subscriber whose view changed to the window of its new view, and sends it the difference. */
export function moveSubscription(
  core: LiveQueryCore,
  subscription: Subscription,
  socket: RealtimeSocket,
  access: Access,
): void {
  try {
    const key = windowKeyOf(subscription.request, access.viewKey);
    const target = core.index.window(key) ?? openWindow(core, subscription.request, access, subscription.owner);
    core.index.move(subscription, target);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return endQueries(core, socket, [subscription], error);
  }
  catchUp(core, subscription, socket, RESYNC);
}

/**
 * Checks each subscriber of the window as of now; answers the access of one that may keep it (its
 * scope reads for all of them), or undefined when none is left.
 */
function settleSubscribers(core: LiveQueryCore, window: LiveWindow): Access | undefined {
  let kept: Access | undefined;
  for (const subscription of [...window.subscribers] as Subscription[]) {
    const socket = core.findSocket(subscription.socketId);
    const access = socket && core.access.check(socket, window.appId, window.entity);
    if (!socket || !access) dropSubscription(core, subscription);
    else if (access instanceof JoinRefused) endQueries(core, socket, [subscription], access);
    else if (access.viewKey !== window.viewKey) moveSubscription(core, subscription, socket, access);
    else kept ??= access;
  }
  return kept;
}

/** One delivery of a window's change to one subscriber, checked first. */
function deliver(core: LiveQueryCore, subscription: Subscription, change: WindowChange, text: UpdateText): void {
  const { window } = subscription;
  if (subscription.version >= change.to) return; // it joined after the change
  const socket = core.findSocket(subscription.socketId);
  if (!socket) return void dropSubscription(core, subscription);
  const access = core.access.check(socket, window.appId, window.entity);
  if (access instanceof JoinRefused) return endQueries(core, socket, [subscription], access);
  if (access.viewKey !== window.viewKey) return moveSubscription(core, subscription, socket, access);
  if (subscription.version !== change.from) return catchUp(core, subscription, socket, change.cause);
  send(socket, subscription, text);
  subscription.version = change.to;
  subscription.held = change.after;
}

function deliverAll(
  core: LiveQueryCore,
  window: LiveWindow,
  subscriptions: readonly Subscription[],
  change: WindowChange,
  text: UpdateText,
): void {
  const what = describeCause(window, change.cause);
  for (const subscription of subscriptions) {
    // Moved, replaced or dropped since: not this window's subscriber any more.
    if (subscription.window !== window || !core.index.isCurrent(subscription)) continue;
    core.isolated(`${what} for socket ${subscription.socketId}`, () => deliver(core, subscription, change, text));
  }
}

/** The work unit of a window with writes to take in (or marked stale): update once, deliver to all. */
export function updateWindow(core: LiveQueryCore, window: LiveWindow): void {
  window.queued = false;
  const access = settleSubscribers(core, window);
  if (!access) return;
  const definition = definitionOf(core.context, window.appId, window.entity);
  if (definition !== window.definition) window.stale = true;
  const watches = window.subscribers.size;
  const what = `${describeCause(window, window.causeOf(null))} for the live query seen as ${window.viewKey} (${watches} ${watches === 1 ? 'watch' : 'watches'})`;
  const outcome: { change: WindowChange | null; held: HeldChange | null } = { change: null, held: null };
  const updated = core.isolated(what, () => {
    try {
      const reader = windowReader(core.context, access.scope, window.query);
      const { change, held } = withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () => window.update(reader));
      outcome.change = change;
      outcome.held = held;
    } catch (error) {
      if (!isRefusal(error)) throw error;
      // A refusal or a query over its budget ends every watch of the window, each told why.
      for (const subscription of [...window.subscribers] as Subscription[]) {
        const socket = core.findSocket(subscription.socketId);
        if (socket) endQueries(core, socket, [subscription], error);
        else dropSubscription(core, subscription);
      }
    }
  });
  // A failed update is read again in full with the next write (the rows clients hold are unchanged).
  if (!updated) return void (window.stale = true);
  window.definition = definition;
  window.scope = access.scope;
  if (outcome.held) core.index.resulted(window, outcome.held.entered, outcome.held.left);
  if (outcome.change) fanOut(core, window, outcome.change);
}

function fanOut(core: LiveQueryCore, window: LiveWindow, change: WindowChange): void {
  const text = packetText(updateText({ ...change, timestamp: core.context.nowIso() }));
  const subscriptions = [...window.subscribers] as Subscription[];
  deliverAll(core, window, subscriptions.slice(0, FANOUT_CHUNK), change, text);
  for (let at = FANOUT_CHUNK; at < subscriptions.length; at += FANOUT_CHUNK) {
    const chunk = subscriptions.slice(at, at + FANOUT_CHUNK);
    core.queue.push(window.lane, () => deliverAll(core, window, chunk, change, text));
  }
}

/** Queues the window's update, once, in its lane. */
export function scheduleUpdate(core: LiveQueryCore, window: LiveWindow): void {
  if (window.queued) return;
  window.queued = true;
  core.queue.push(window.lane, () => updateWindow(core, window));
}
