import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';

import { USER_ENTITY, type EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { JoinRefused, refusalOf } from './access';
import { AccessCache } from './live-query-access';
import { LiveRowsBudget } from './live-query-budget';
import { dropSubscription, endQueries, watchRoom, type LiveQueryCore } from './live-query-core';
import { moveSubscription, scheduleUpdate } from './live-query-delivery';
import { LiveQueryIndex } from './live-query-index';
import { WriteIntake } from './live-query-intake';
import { FairQueue, SLICE_MS } from './live-query-queue';
import { parseQueryAddress } from './live-query-request';
import { subscribeQuery, unsubscribeQuery } from './live-query-subscribe';
import { requestBytes, WaitingRequests } from './live-query-waiting';
import type { WriteType } from './live-query-window';
import type { RealtimeSocket } from './socket-types';

export { MAX_QUERIES_PER_SOCKET } from './live-query-subscribe';
export { MAX_QUEUED_REQUESTS_PER_SOCKET } from './live-query-waiting';
export { watchRoom } from './live-query-core';
export type { WriteType } from './live-query-window';

/**
 * Server-side live queries (docs/LIVE-QUERIES.md): `subscribe_query` answers with the query's
 * result, then every write that changes that result, as the subscriber may see it now, becomes one
 * `update_model` with the exact edit. The publish step of every record write calls
 * {@link LiveQueries.entityChanged}. All the work happens after the write has answered, in slices
 * of a few milliseconds (live-query-queue.ts) that let requests through between them: first each
 * write is handed to the lanes of the windows it may affect, and checked there against each of them
 * (live-query-intake.ts), then each affected window is updated from the changed records
 * (live-query-window.ts) and its watches are told (live-query-delivery.ts).
 */

export interface LiveQueryLimits {
  rowsPerCaller?: number;
  rowsPerApp?: number;
}

export class LiveQueries {
  private readonly core: LiveQueryCore;
  private readonly index = new LiveQueryIndex();
  private readonly queue = new FairQueue((unit) => this.isolated('live-query work', unit));
  private readonly access: AccessCache;
  private readonly intake: WriteIntake;
  private scheduled = false;
  /** The timer of a slice waiting for a resting lane, and when it fires. */
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = 0;
  private readonly waiting = new WaitingRequests();
  /** Until when this turn of the event loop may still run requests at once (undefined: no turn open). */
  private inlineUntil: number | undefined;

  constructor(
    private readonly context: EmulatorContext,
    findSocket: (id: string) => RealtimeSocket | undefined,
    limits: LiveQueryLimits = {},
  ) {
    this.access = new AccessCache(context);
    this.core = {
      context,
      index: this.index,
      budget: new LiveRowsBudget(limits.rowsPerCaller, limits.rowsPerApp),
      queue: this.queue,
      access: this.access,
      findSocket,
      isolated: (what, work) => this.isolated(what, work),
    };
    this.intake = new WriteIntake(this.core, (appId, userId) => this.resyncUser(appId, userId));
  }

  /** `subscribe_query`: queued behind the socket's earlier requests. */
  subscribe(socket: RealtimeSocket, payload: unknown): void {
    this.request(socket, payload, () => subscribeQuery(this.core, socket, payload));
  }

  /** `unsubscribe_query`: queued behind the socket's earlier requests. */
  unsubscribe(socket: RealtimeSocket, payload: unknown): void {
    this.request(socket, payload, () => unsubscribeQuery(this.core, socket, payload));
  }

  /** A socket went away: its queries go with it (its queued requests find it gone). */
  dropSocket(socketId: string): void {
    for (const subscription of this.index.ofSocket(socketId)) dropSubscription(this.core, subscription);
  }

  /** The publish step of a record write: queued, taken in right after the write's own work. */
  entityChanged(appId: string, entity: string, type: WriteType, record: EntityRecord): void {
    // A change of a user may change what that user's rules let it see, in every entity.
    const relevant = this.index.watches(appId, entity) || (entity === USER_ENTITY && this.index.count() > 0);
    if (!relevant) return;
    this.intake.push({ appId, entity, type, record });
    this.schedule();
  }

  /** The sockets holding the live query of this room (test tools address watch rooms like rooms). */
  socketsIn(room: string): string[] {
    return this.index
      .socketIds()
      .filter((id) => this.index.ofSocket(id).some((subscription) => subscription.room === room));
  }

  /** Live queries held by all sockets (for tests and the benchmark). */
  count(): number {
    return this.index.count();
  }

  /**
   * Runs a socket's request now when nothing waits and this turn of the event loop has not yet
   * spent a slice on live queries (the common case: answered as fast as before), else queues it
   * behind the socket's earlier requests, its lane taking turns with the others.
   */
  private request(socket: RealtimeSocket, payload: unknown, work: () => void): void {
    const run = () => this.isolated(`live-query request of socket ${socket.id}`, work);
    const { owner, appId } = socket.data;
    if (this.queue.size === 0 && !this.queue.isResting(owner) && this.inlineAllowed()) {
      // Access answers are kept for one slice of work; this is one of its own.
      this.access.clear();
      const started = performance.now();
      run();
      return this.queue.charge(owner, performance.now() - started);
    }
    const waiting = { socketId: socket.id, appId, owner, bytes: requestBytes(payload) };
    const refusal = this.waiting.admit(waiting);
    if (refusal) return void socket.emit('error', { ...refusalOf(refusal), room: roomOf(payload) });
    this.queue.push(owner, () => {
      this.waiting.release(waiting);
      // Gone meanwhile (disconnected): nothing to answer.
      if (this.core.findSocket(socket.id) === socket) run();
    });
    this.schedule();
  }

  /** True while this turn of the event loop has spent less than a slice on requests run at once. */
  private inlineAllowed(): boolean {
    const now = performance.now();
    if (this.inlineUntil === undefined) {
      this.inlineUntil = now + SLICE_MS;
      setImmediate(() => (this.inlineUntil = undefined));
    }
    return now < this.inlineUntil;
  }

  /**
   * Runs the next slice as soon as some work can run: at once (after pending I/O) when a write
   * waits to be handed out or a lane is awake, else when the first resting lane wakes. A timer for
   * a resting lane gives way to work that can run now.
   */
  private schedule(): void {
    const at = this.intake.pending ? 0 : this.queue.nextRunAt();
    if (at === Number.POSITIVE_INFINITY) return;
    const now = performance.now();
    if (this.scheduled && (this.wakeTimer === undefined || at >= this.wakeAt)) return;
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.scheduled = true;
    if (at <= now) return void setImmediate(() => this.slice());
    this.wakeAt = at;
    this.wakeTimer = setTimeout(() => this.slice(), Math.ceil(at - now));
    // A resting lane alone does not keep the process alive (Node's timers, also under a test's DOM).
    this.wakeTimer.unref();
  }

  /**
   * One slice of work: the writes first (a window is only updated once every write before it has
   * been matched against it), then queued units by lane in turn, until the slice's time is up.
   */
  private slice(): void {
    this.scheduled = false;
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    const deadline = performance.now() + SLICE_MS;
    this.access.clear();
    if (this.intake.runUntil(deadline)) this.queue.runUntil(deadline);
    this.schedule();
  }

  /** A user's record changed: its rules may see differently now, in every entity it watches. */
  private resyncUser(appId: string, userId: string): void {
    const owner = `user:${userId}`;
    for (const socketId of this.index.socketIds()) {
      const socket = this.core.findSocket(socketId);
      if (!socket || socket.data.appId !== appId || socket.data.owner !== owner) continue;
      this.queue.push(owner, () =>
        this.isolated(`resync of user ${userId} for socket ${socketId}`, () => this.resyncSocket(socket)),
      );
    }
  }

  private resyncSocket(socket: RealtimeSocket): void {
    for (const subscription of this.index.ofSocket(socket.id)) {
      if (!this.index.isCurrent(subscription)) continue;
      const { window } = subscription;
      const access = this.access.check(socket, window.appId, window.entity);
      if (access instanceof JoinRefused) endQueries(this.core, socket, [subscription], access);
      else if (access.viewKey !== window.viewKey) moveSubscription(this.core, subscription, socket, access);
      else if (window.viewKey !== 'all') {
        // The window of this very caller: read again as it sees now.
        window.stale = true;
        scheduleUpdate(this.core, window);
      }
    }
  }

  private isolated(what: string, work: () => void): boolean {
    try {
      work();
      return true;
    } catch (error) {
      this.context.log(
        `live queries: the ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return false;
    }
  }
}

function roomOf(payload: unknown): string | null {
  try {
    return watchRoom(parseQueryAddress(payload));
  } catch (error) {
    if (error instanceof JoinRefused) return null;
    throw error;
  }
}
