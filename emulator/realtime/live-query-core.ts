import { DomainError } from '../core/errors';
import type { EmulatorContext } from '../instance/context';
import { DEFAULT_QUERY_BUDGET_MS, withOwnQueryBudget } from '../query/budget';
import { JoinRefused, refusalOf } from './access';
import { definitionOf, type Access, type AccessCache } from './live-query-access';
import type { LiveRowsBudget } from './live-query-budget';
import { requiredValues } from './live-query-candidates';
import { windowReader } from './live-query-evaluation';
import type { LiveQueryIndex, Subscription } from './live-query-index';
import type { FairQueue } from './live-query-queue';
import { watchSize, type LiveQueryRequest, type QueryAddress } from './live-query-request';
import { LiveWindow } from './live-query-window';
import type { RealtimeSocket } from './socket-types';

/**
 * What the parts of the live-query server share (live-queries.ts builds it): the subscriptions and
 * windows, the budget, the work queue, the access answers of the current slice, and the sockets.
 */
export interface LiveQueryCore {
  readonly context: EmulatorContext;
  readonly index: LiveQueryIndex;
  readonly budget: LiveRowsBudget;
  readonly queue: FairQueue;
  readonly access: AccessCache;
  findSocket(id: string): RealtimeSocket | undefined;
  /** Runs work whose failure must not reach other queries: logged, and false. */
  isolated(what: string, work: () => void): boolean;
}

export function watchRoom({ appId, entity, queryId }: QueryAddress): string {
  return `entities:${appId}:${entity}:watch:${queryId}`;
}

export function isRefusal(error: unknown): error is JoinRefused | DomainError {
  return error instanceof JoinRefused || error instanceof DomainError;
}

/** Windows are shared by query (as parsed, with its defaults) and by view. */
export function windowKeyOf(request: LiveQueryRequest, viewKey: string): string {
  const { sort, limit, fields } = request.query;
  const query = JSON.stringify([request.options.filter ?? null, sort, limit, fields]);
  return [request.appId, request.entity, viewKey, query].join('\u0000');
}

/** A new window for the query as `access` sees it, read in full on a query budget of its own. */
export function openWindow(core: LiveQueryCore, request: LiveQueryRequest, access: Access, lane: string): LiveWindow {
  const { appId, entity, query } = request;
  const key = windowKeyOf(request, access.viewKey);
  const window = new LiveWindow(
    key,
    appId,
    entity,
    access.viewKey,
    query,
    requiredValues(request.options.filter),
    lane,
  );
  withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () => window.evaluate(windowReader(core.context, access.scope, query)));
  window.definition = definitionOf(core.context, appId, entity);
  window.scope = access.scope;
  return window;
}

/** Forgets a subscription and gives its rows back to the budget; false when it was already gone. */
export function dropSubscription(core: LiveQueryCore, subscription: Subscription): boolean {
  if (!core.index.drop(subscription)) return false;
  core.budget.release(subscription.request.appId, subscription.owner, watchSize(subscription.request));
  return true;
}

/**
 * Ends queries with an error naming each one's room; an expired or revoked token ends the socket
 * too (as for rooms: socket.ts evictStale).
 */
export function endQueries(
  core: LiveQueryCore,
  socket: RealtimeSocket,
  subscriptions: readonly Subscription[],
  error: JoinRefused | DomainError,
): void {
  for (const subscription of subscriptions)
    if (dropSubscription(core, subscription)) socket.emit('error', { ...refusalOf(error), room: subscription.room });
  if (error.code === 'invalid_token') socket.disconnect(true);
}
