import { CandidateIndex } from './live-query-candidates';
import type { LiveQueryRequest } from './live-query-request';
import type { LiveWindow, WindowSubscriber } from './live-query-window';

/** One live query of one socket: its window, and where its client stands. */
export interface Subscription extends WindowSubscriber {
  socketId: string;
  /** Who it counts against (live-query-budget.ts) and whose lane its work runs in. */
  owner: string;
  request: LiveQueryRequest;
  room: string;
  /** Number of the last message sent; the client spots a gap and asks again. */
  seq: number;
  window: LiveWindow;
}

const entityKey = (appId: string, entity: string) => `${appId}\u0000${entity}`;

/**
 * The live queries by socket (to answer and drop them), their windows by query and view (to share
 * them), and the windows by entity (to find those a write may affect). A window lives as long as a
 * subscription uses it.
 */
export class LiveQueryIndex {
  private readonly bySocket = new Map<string, Map<string, Subscription>>();
  private readonly windows = new Map<string, LiveWindow>();
  private readonly byEntity = new Map<string, CandidateIndex<LiveWindow>>();

  /** The window of this query and view, if some subscription holds it. */
  window(key: string): LiveWindow | undefined {
    return this.windows.get(key);
  }

  add(subscription: Subscription): void {
    const { socketId, request } = subscription;
    let own = this.bySocket.get(socketId);
    if (!own) this.bySocket.set(socketId, (own = new Map()));
    own.set(request.queryId, subscription);
    this.attach(subscription, subscription.window);
  }

  /** Forgets a subscription; false when it was already replaced or dropped. */
  drop(subscription: Subscription): boolean {
    const { socketId, request } = subscription;
    const own = this.bySocket.get(socketId);
    if (own?.get(request.queryId) !== subscription) return false;
    own.delete(request.queryId);
    if (own.size === 0) this.bySocket.delete(socketId);
    this.detach(subscription);
    return true;
  }

  /** Moves a subscription to another window (its caller now sees differently). */
  move(subscription: Subscription, window: LiveWindow): void {
    this.detach(subscription);
    subscription.window = window;
    this.attach(subscription, window);
  }

  /** The window's result now holds `entered` and no longer `left`. */
  resulted(window: LiveWindow, entered: readonly string[], left: readonly string[]): void {
    this.byEntity.get(entityKey(window.appId, window.entity))?.hold(window, entered, left);
  }

  find(socketId: string, queryId: string): Subscription | undefined {
    return this.bySocket.get(socketId)?.get(queryId);
  }

  isCurrent(subscription: Subscription): boolean {
    return this.find(subscription.socketId, subscription.request.queryId) === subscription;
  }

  countOf(socketId: string): number {
    return this.bySocket.get(socketId)?.size ?? 0;
  }

  ofSocket(socketId: string): Subscription[] {
    return [...(this.bySocket.get(socketId)?.values() ?? [])];
  }

  /** The windows of the entity a write of `record` may affect. */
  candidates(appId: string, entity: string, record: Record<string, unknown> & { id: string }, deleted: boolean) {
    return [...(this.byEntity.get(entityKey(appId, entity))?.candidates(record, deleted) ?? [])];
  }

  watches(appId: string, entity: string): boolean {
    return this.byEntity.has(entityKey(appId, entity));
  }

  /** The windows whose work runs in this lane (they were opened by its caller). */
  windowsInLane(lane: string): LiveWindow[] {
    return [...this.windows.values()].filter((window) => window.lane === lane);
  }

  socketIds(): string[] {
    return [...this.bySocket.keys()];
  }

  count(): number {
    let total = 0;
    for (const own of this.bySocket.values()) total += own.size;
    return total;
  }

  private attach(subscription: Subscription, window: LiveWindow): void {
    if (!this.windows.has(window.key)) {
      this.windows.set(window.key, window);
      const key = entityKey(window.appId, window.entity);
      let watchers = this.byEntity.get(key);
      if (!watchers) this.byEntity.set(key, (watchers = new CandidateIndex()));
      watchers.add(window, window.required, window.ids);
    }
    window.subscribers.add(subscription);
  }

  private detach(subscription: Subscription): void {
    const window = subscription.window;
    window.subscribers.delete(subscription);
    if (window.subscribers.size > 0 || this.windows.get(window.key) !== window) return;
    this.windows.delete(window.key);
    const key = entityKey(window.appId, window.entity);
    const watchers = this.byEntity.get(key);
    watchers?.delete(window, window.required, window.ids);
    if (watchers?.size === 0) this.byEntity.delete(key);
  }
}
