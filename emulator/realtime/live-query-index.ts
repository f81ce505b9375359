import { CandidateIndex, type RequiredEquality } from './live-query-candidates';
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
  /** An equality its filter requires, under which it is filed (live-query-candidates.ts). */
  equality: RequiredEquality | undefined;
}

const entityKey = (appId: string, entity: string) => `${appId}\u0000${entity}`;

/** The live queries by socket (to answer and drop them) and by entity (to find those a write may affect). */
export class SubscriptionIndex {
  private readonly bySocket = new Map<string, Map<string, Subscription>>();
  private readonly byEntity = new Map<string, CandidateIndex<Subscription>>();

  add(subscription: Subscription): void {
    const { socketId, request } = subscription;
    let own = this.bySocket.get(socketId);
    if (!own) this.bySocket.set(socketId, (own = new Map()));
    own.set(request.queryId, subscription);
    const key = entityKey(request.appId, request.entity);
    let watchers = this.byEntity.get(key);
    if (!watchers) this.byEntity.set(key, (watchers = new CandidateIndex()));
    watchers.add(subscription, subscription.equality, subscription.ids);
  }

  /** The subscription's result changed from holding `before` to holding its current ids. */
  resulted(subscription: Subscription, before: ReadonlySet<string>): void {
    const { appId, entity } = subscription.request;
    const added = [...subscription.ids].filter((id) => !before.has(id));
    const removed = [...before].filter((id) => !subscription.ids.has(id));
    this.byEntity.get(entityKey(appId, entity))?.hold(subscription, added, removed);
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
    watchers?.delete(subscription, subscription.equality, subscription.ids);
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

  /** The subscriptions of the entity a write of `record` may affect. */
  candidates(appId: string, entity: string, record: Subscription['rows'][number]['record'], deleted: boolean) {
    return [...(this.byEntity.get(entityKey(appId, entity))?.candidates(record, deleted) ?? [])];
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
