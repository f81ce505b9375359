import type { ResultRow } from './live-query-diff';
import type { LiveQueryRequest } from './live-query-request';

/** One live query of one socket, with the result its client holds. */
export interface Subscription {
  socketId: string;
  request: LiveQueryRequest;
  room: string;
  /** Number of the last message sent; the client spots a gap and asks again. */
  seq: number;
  rows: ResultRow[];
  ids: Set<string>;
}

const entityKey = (appId: string, entity: string) => `${appId}\u0000${entity}`;

/** The live queries by socket (to answer and drop them) and by entity (to find them on a write). */
export class SubscriptionIndex {
  private readonly bySocket = new Map<string, Map<string, Subscription>>();
  private readonly byEntity = new Map<string, Set<Subscription>>();

  add(subscription: Subscription): void {
    const { socketId, request } = subscription;
    let own = this.bySocket.get(socketId);
    if (!own) this.bySocket.set(socketId, (own = new Map()));
    own.set(request.queryId, subscription);
    const key = entityKey(request.appId, request.entity);
    let watchers = this.byEntity.get(key);
    if (!watchers) this.byEntity.set(key, (watchers = new Set()));
    watchers.add(subscription);
  }

  /** Forgets a subscription; false when it was already replaced or dropped. */
  drop(subscription: Subscription): boolean {
    const { socketId, request } = subscription;
    const own = this.bySocket.get(socketId);
    if (own?.get(request.queryId) !== subscription) return false;
    own.delete(request.queryId);
    if (own.size === 0) this.bySocket.delete(socketId);
    const key = entityKey(request.appId, request.entity);
    const watchers = this.byEntity.get(key);
    watchers?.delete(subscription);
    if (watchers?.size === 0) this.byEntity.delete(key);
    return true;
  }

  find(socketId: string, queryId: string): Subscription | undefined {
    return this.bySocket.get(socketId)?.get(queryId);
  }

  countOf(socketId: string): number {
    return this.bySocket.get(socketId)?.size ?? 0;
  }

  ofSocket(socketId: string): Subscription[] {
    return [...(this.bySocket.get(socketId)?.values() ?? [])];
  }

  ofEntity(appId: string, entity: string): Subscription[] {
    return [...(this.byEntity.get(entityKey(appId, entity)) ?? [])];
  }

  watches(appId: string, entity: string): boolean {
    return this.byEntity.has(entityKey(appId, entity));
  }

  socketIds(): string[] {
    return [...this.bySocket.keys()];
  }

  count(): number {
    let total = 0;
    for (const own of this.bySocket.values()) total += own.size;
    return total;
  }
}

/** Subscriptions grouped by socket, or by entity, in first-seen order. */
export function groupSubscriptions(
  subscriptions: readonly Subscription[],
  by: 'socket' | 'entity',
): Map<string, Subscription[]> {
  const groups = new Map<string, Subscription[]>();
  for (const subscription of subscriptions) {
    const { appId, entity } = subscription.request;
    const key = by === 'socket' ? subscription.socketId : entityKey(appId, entity);
    const group = groups.get(key);
    if (group) group.push(subscription);
    else groups.set(key, [subscription]);
  }
  return groups;
}
