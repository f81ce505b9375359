/**
 * A watch kept by the client itself, for a platform without live queries (docs/LIVE-QUERIES.md,
 * "Against a platform without live queries"): it follows the entity room and loads the result with
 * `filter()` over HTTP after every join and whenever a change may have altered it. Records enter
 * the result only from HTTP, never from the socket's payload. Loads never overlap; a change during
 * one queues exactly one more, and the load's result is still shown unless a delete was applied to
 * the shown result meanwhile (then the result may be older than it), so a steady stream of writes
 * never freezes the result.
 */
import type { PlatformError } from '../../core/errors';
import type { EntityChangeEvent, EntityRecord, Unsubscribe, WatchOptions } from '../../core/types';
import type { SubscriptionHooks } from '../subscription-hooks';
import { matchFilter, sortsAfter } from './live-query-match';
import { RealtimeErrorCodes } from './parse';

/** The platform's default page (docs/PLATFORM-NOTES.md "HTTP"): a result this long may hide more. */
export const DEFAULT_PAGE_SIZE = 50;
/** Waits before loading again after a failed load: the socket's own backoff (SPEC section 9). */
const RETRY_DELAYS_MS = [1000, 2000, 4000, 5000];

/** Errors after which a change may have been missed: load again. */
const MISSED_CHANGE_CODES: ReadonlySet<string> = new Set([
  RealtimeErrorCodes.malformedUpdate,
  RealtimeErrorCodes.updateTooLarge,
  RealtimeErrorCodes.serverError,
]);

export interface FallbackSource {
  entity: string;
  options: WatchOptions;
  /** `filter(filter, sort, limit, 0, fields)` over HTTP. */
  load(): Promise<EntityRecord[]>;
}

/** Where the fallback reports: each new result, and the room's life. */
export interface FallbackTarget {
  result(entities: EntityRecord[], timestamp: string): void;
  hooks: Required<SubscriptionHooks>;
}

type SubscribeToEntity = (
  entity: string,
  callback: (change: EntityChangeEvent) => void,
  hooks: SubscriptionHooks,
) => Unsubscribe;

export class FallbackQuery {
  private current: EntityRecord[] | undefined;
  private loading = false;
  private again = false;
  /** A delete was applied to the shown result while a load ran: that load's result may be older. */
  private removedWhileLoading = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly unsubscribe: Unsubscribe;
  private stopped = false;

  constructor(
    private readonly source: FallbackSource,
    subscribeToEntity: SubscribeToEntity,
    private readonly target: FallbackTarget,
  ) {
    this.unsubscribe = subscribeToEntity(source.entity, (change) => this.changed(change), {
      // Changes made while the room was not joined were never sent: every join loads again.
      onJoin: () => {
        this.target.hooks.onJoin();
        this.reload();
      },
      onDisconnect: () => this.target.hooks.onDisconnect(),
      onError: (error) => this.failed(error),
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.unsubscribe();
  }

  private failed(error: PlatformError): void {
    if (error.code !== undefined && MISSED_CHANGE_CODES.has(error.code)) this.reload();
    else this.target.hooks.onError(error);
  }

  private changed(change: EntityChangeEvent): void {
    const effect = this.effectOf(change);
    if (effect === 'none') return;
    if (effect === 'reload' || !this.current) return this.reload();
    this.current = this.current.filter((record) => record.id !== change.id);
    this.target.result(this.current, change.timestamp);
    // A load running now may have read the record before it was deleted.
    if (this.loading) {
      this.again = true;
      this.removedWhileLoading = true;
    }
  }

  /** What a change does to the result, as far as the client can tell for sure. */
  private effectOf(change: EntityChangeEvent): 'none' | 'remove' | 'reload' {
    const list = this.current;
    if (!list) return 'reload';
    const { filter, sort, limit } = this.source.options;
    const inResult = list.some((record) => record.id === change.id);
    // A full window may hide records beyond it, which slide in when one leaves.
    const full = list.length >= (limit || DEFAULT_PAGE_SIZE);
    if (change.type === 'delete') return !inResult ? 'none' : full ? 'reload' : 'remove';
    // Changed in the result: its fields, place or membership may differ, and only HTTP knows how
    // this caller sees it.
    if (inResult || !change.data) return 'reload';
    if (matchFilter(filter, change.data) === false) return 'none';
    const last = list[list.length - 1];
    if (full && last && sortsAfter(change.data, last, sort) === true) return 'none';
    return 'reload';
  }

  /** Loads the result now, or once the load in flight has ended. */
  private reload(): void {
    if (this.stopped) return;
    if (this.loading) {
      this.again = true;
      return;
    }
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.loading = true;
    this.again = false;
    this.removedWhileLoading = false;
    const startedAt = new Date().toISOString();
    this.source.load().then(
      (entities) => this.loaded(entities, startedAt),
      (error: unknown) => this.loadFailed(error),
    );
  }

  private loaded(entities: EntityRecord[], startedAt: string): void {
    this.loading = false;
    this.failures = 0;
    if (this.stopped) return;
    // A delete applied meanwhile may be missing from this result, which is then older than what is
    // shown: the next load replaces it. Any other change during the load only makes this result
    // not the latest: shown, and the next load follows. The first result is shown regardless.
    if (this.removedWhileLoading && this.current) return this.reload();
    this.current = entities;
    this.target.result(entities, startedAt);
    if (this.again) this.reload();
  }

  private loadFailed(error: unknown): void {
    this.loading = false;
    if (this.stopped) return;
    this.target.hooks.onError(error as PlatformError);
    const delay = RETRY_DELAYS_MS[Math.min(this.failures, RETRY_DELAYS_MS.length - 1)] as number;
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.reload();
    }, delay);
  }
}
