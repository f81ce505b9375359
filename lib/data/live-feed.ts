/**
 * A live feed keeps one SWR cache entry equal to the server's data: loaded over HTTP, patched by
 * real-time changes, and refetched whenever a change may have been missed. Framework-free; the React
 * side is use-live-feed.ts.
 *
 * Why a feed per cache key rather than plain `mutate` calls from each hook:
 * - SWR discards a fetch if the cache was mutated after the fetch started. So while a fetch is in
 *   flight, changes are not written to the cache but logged, and the fetch replays every change
 *   logged since it started onto its own result. Nothing received is lost either way.
 * - A change that cannot be applied exactly (a filtered or limited query, an update of a record the
 *   list never had) queues one refetch; refetches never overlap, so a write storm costs at most one
 *   request at a time.
 * - Changes made while the room was not joined are never pushed. Every join (first one, rejoin after
 *   a reconnect or a token change) therefore refetches, unless a fetch started after the join anyway.
 * - Two components showing the same data share the feed, its subscription and its bookkeeping.
 *   A feed lives as long as its SWR cache (which keeps every key's data anyway); only its socket
 *   subscription ends when the last component using it unmounts.
 */
import type { PlatformError, SubscriptionHooks, Unsubscribe } from '@/lib/sdk';

/** Matches the SDK's room grace period: a remount within it keeps the feed and its subscription. */
const FEED_RELEASE_DELAY_MS = 250;

/** Error codes after which a change may have been missed (lib/sdk/realtime/socket/parse.ts RealtimeErrorCodes). */
const MISSED_CHANGE_CODES = new Set(['MALFORMED_UPDATE', 'UPDATE_TOO_LARGE', 'REALTIME_ERROR']);

/**
 * connecting: not joined yet; live: changes arrive; reconnecting: the connection dropped and will be
 * retried; failed: real-time refused (join refused, connection refused, URL too long, not loadable).
 * The HTTP data stays usable in every state.
 */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'failed';

export interface LiveState {
  status: LiveStatus;
  /** The latest real-time problem (cleared by the next join), if any. */
  error: PlatformError | undefined;
}

export interface LiveFeedSource<Data, Change> {
  /** Loads the data over HTTP. */
  load(): Promise<Data>;
  /** The data after `change`, or null when it cannot be computed exactly (the feed refetches). */
  apply(data: Data, change: Change): Data | null;
  /** Subscribes to changes with the given lifecycle hooks. */
  subscribe(onChange: (change: Change) => void, hooks: SubscriptionHooks): Unsubscribe;
}

/** The feed's handle on its SWR cache entry. */
export interface FeedCache<Data> {
  read(): Data | undefined;
  /** Replaces the cached data without fetching. */
  write(data: Data): void;
  /** Fetches again now (through the feed's `fetch`), even if a fetch just finished. */
  revalidate(): void;
}

export const CONNECTING: LiveState = { status: 'connecting', error: undefined };

export class LiveFeed<Data, Change> {
  private state: LiveState = CONNECTING;
  private readonly stateListeners = new Set<() => void>();
  // Changes received while fetches are in flight, numbered so each fetch replays only later ones.
  private received = 0;
  private log: { seq: number; change: Change }[] = [];
  private readonly fetchStarts: number[] = [];
  private refetchQueued = false;
  // Orders fetch starts and joins: a fetch that started after the latest join covers it.
  private clock = 0;
  private lastFetchStart = -1;
  private holders = 0;
  private unsubscribe: Unsubscribe | undefined;
  private releaseTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly source: LiveFeedSource<Data, Change>,
    private readonly cache: FeedCache<Data>,
  ) {}

  /** The SWR fetcher of this feed's key. */
  readonly fetch = async (): Promise<Data> => {
    const startSeq = this.received;
    this.fetchStarts.push(startSeq);
    this.lastFetchStart = ++this.clock;
    let failed = false;
    try {
      let data: Data = await this.source.load();
      for (const { seq, change } of this.log) if (seq > startSeq) data = this.applyOrRefetch(data, change);
      return data;
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      this.fetchStarts.splice(this.fetchStarts.indexOf(startSeq), 1);
      // A failed fetch replays nothing; if no other fetch will, its changes go to the cached data.
      const orphaned = failed && this.fetchStarts.length === 0 ? this.log.filter(({ seq }) => seq > startSeq) : [];
      const oldestStart = Math.min(...this.fetchStarts);
      this.log = this.log.filter(({ seq }) => seq > oldestStart);
      // After SWR has stored this result (it does so once this promise settles).
      if (this.fetchStarts.length === 0) setTimeout(() => this.afterFetches(orphaned.map(({ change }) => change)), 0);
    }
  };

  /** Starts (or keeps) the subscription for one more holder; returns its idempotent release. */
  retain(): () => void {
    this.holders += 1;
    if (this.releaseTimer !== undefined) clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    this.unsubscribe ??= this.source.subscribe((change) => this.receive(change), {
      onJoin: () => this.joined(),
      onDisconnect: () => this.setState({ status: 'reconnecting', error: this.state.error }),
      onError: (error) => this.failed(error),
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      if (this.holders === 0) this.releaseTimer = setTimeout(() => this.stop(), FEED_RELEASE_DELAY_MS);
    };
  }

  getState = (): LiveState => this.state;

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Ends the subscription; the cached data stays, and the next holder subscribes again. */
  private stop(): void {
    this.releaseTimer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.state = CONNECTING;
  }

  private receive(change: Change): void {
    this.received += 1;
    if (this.fetchStarts.length > 0) {
      this.log.push({ seq: this.received, change });
      return;
    }
    this.applyToCache([change]);
  }

  private applyToCache(changes: Change[]): void {
    const current = this.cache.read();
    // Nothing loaded (yet, or the load failed): the next successful load includes these changes.
    if (current === undefined || changes.length === 0) return;
    let data: Data = current;
    for (const change of changes) data = this.applyOrRefetch(data, change);
    if (data !== current) this.cache.write(data);
    this.flushRefetch();
  }

  private applyOrRefetch(data: Data, change: Change): Data {
    const next = this.source.apply(data, change);
    if (next === null) {
      this.refetchQueued = true;
      return data;
    }
    return next;
  }

  private afterFetches(orphaned: Change[]): void {
    if (this.fetchStarts.length > 0) return;
    this.applyToCache(orphaned);
    this.flushRefetch();
  }

  /** Runs a queued refetch unless a fetch is running (its end runs it). */
  private flushRefetch(): void {
    if (!this.refetchQueued || this.fetchStarts.length > 0 || this.holders === 0) return;
    this.refetchQueued = false;
    this.cache.revalidate();
  }

  private requestRefetch(): void {
    this.refetchQueued = true;
    this.flushRefetch();
  }

  private joined(): void {
    this.setState({ status: 'live', error: undefined });
    const joinedAt = ++this.clock;
    // Checked a tick later: the first fetch of a freshly mounted hook starts right after the join
    // and already sees everything, so it needs no second one.
    setTimeout(() => {
      if (this.lastFetchStart < joinedAt) this.requestRefetch();
    }, 0);
  }

  private failed(error: PlatformError): void {
    if (error.code !== undefined && MISSED_CHANGE_CODES.has(error.code)) {
      this.setState({ status: this.state.status, error });
      this.requestRefetch();
    } else {
      this.setState({ status: 'failed', error });
    }
  }

  private setState(next: LiveState): void {
    if (next.status === this.state.status && next.error === this.state.error) return;
    this.state = next;
    for (const listener of [...this.stateListeners]) listener();
  }
}
