import { performance } from 'node:perf_hooks';

import { USER_ENTITY, type EntityRecord } from '../core/types';
import { DEFAULT_QUERY_BUDGET_MS, withOwnQueryBudget } from '../query/budget';
import { JoinRefused } from './access';
import { definitionOf } from './live-query-access';
import { dropSubscription, endQueries, isRefusal, type LiveQueryCore } from './live-query-core';
import { scheduleUpdate } from './live-query-delivery';
import type { Subscription } from './live-query-index';
import type { WorkUnit } from './live-query-queue';
import type { LiveWindow, WriteType } from './live-query-window';

/**
 * The first step of live-query work after a write (docs/LIVE-QUERIES.md): each write is matched
 * against the windows it may affect, one record against each candidate's filter as that window's
 * view sees it, and the affected windows are queued for their update. The matching is work of the
 * windows' lanes (live-query-queue.ts), in small units: a caller may hold thousands of windows
 * whose filters no index narrows, each a filter of up to 2,000 nodes, so one write can take tens of
 * milliseconds to match against them (tried: 2,000 windows of a `$or` of 100 branches, about 30 ms
 * a write). In one queue for everyone, one caller writing 60 times a second kept every other
 * caller's watches from hearing anything; in its own lane it waits for its own matching only.
 */

export interface PendingWrite {
  appId: string;
  entity: string;
  type: WriteType;
  record: EntityRecord;
}

/** What the units of one write share. */
interface Matching {
  write: PendingWrite;
  /** The entity's rules and schema when the write was handed out: a window read under others is stale. */
  definition: unknown;
  /** The record as each view sees it, made once per view for all its windows. */
  views: Map<string, EntityRecord | null>;
}

/** Candidates matched in one unit of work: a few milliseconds at most, with the largest filters. */
export const MATCH_CHUNK = 16;

/**
 * How long checks may wait in a caller's lane before its watches are ended with
 * `live_queries_busy`: a caller whose windows take longer to check than its writes (or anyone's)
 * leave time for falls further behind while the writes go on, and its waiting checks grow.
 */
export const MAX_CHECK_WAIT_MS = 5000;

/** Watches of an overloaded caller ended in one unit of work: well under a millisecond. */
export const END_CHUNK = 64;

export class WriteIntake {
  private writes: PendingWrite[] = [];
  private nextWrite = 0;
  /** Overloaded lanes whose watches are being ended: their windows get no checks meanwhile. */
  private readonly ending = new Set<string>();

  constructor(
    private readonly core: LiveQueryCore,
    /** Told once a write of a user's record has been handed out (its rules may now see differently). */
    private readonly onUserWritten: (appId: string, userId: string) => void,
    private readonly maxCheckWaitMs = MAX_CHECK_WAIT_MS,
  ) {}

  push(write: PendingWrite): void {
    this.writes.push(write);
  }

  /** True while some write has not been handed to the lanes of its candidates. */
  get pending(): boolean {
    return this.nextWrite < this.writes.length;
  }

  /**
   * Hands writes, in order, to the lanes of the windows each may affect, until all are handed out
   * (true) or `deadline` has passed (false). Cheap: the matching itself runs in the lanes.
   */
  runUntil(deadline: number): boolean {
    while (this.pending && performance.now() < deadline) {
      const write = this.writes[this.nextWrite] as PendingWrite;
      this.nextWrite += 1;
      this.core.isolated(describe(write), () => this.handOut(write));
    }
    if (this.pending) return false;
    this.writes = [];
    this.nextWrite = 0;
    return true;
  }

  private handOut(write: PendingWrite): void {
    const { appId, entity, type, record } = write;
    const matching: Matching = { write, definition: definitionOf(this.core.context, appId, entity), views: new Map() };
    const byLane = new Map<string, LiveWindow[]>();
    for (const window of this.core.index.candidates(appId, entity, record, type === 'delete')) {
      const windows = byLane.get(window.lane);
      if (windows) windows.push(window);
      else byLane.set(window.lane, [window]);
    }
    for (const [lane, windows] of byLane) {
      if (this.ending.has(lane)) {
        // Unchecked: a window read in full meanwhile (another caller joined it) must be read again.
        for (const window of windows) window.stale = true;
        continue;
      }
      if (this.core.queue.matchingWait(lane) > this.maxCheckWaitMs) {
        this.overloaded(lane);
        continue;
      }
      for (let at = 0; at < windows.length; at += MATCH_CHUNK) {
        const chunk = windows.slice(at, at + MATCH_CHUNK);
        this.core.queue.pushMatching(lane, () =>
          this.core.isolated(describe(write), () => match(this.core, matching, chunk)),
        );
      }
    }
    if (entity === USER_ENTITY) this.onUserWritten(appId, record.id);
  }

  /**
   * A lane whose checks wait too long: its caller's watches end with `live_queries_busy`, its
   * waiting checks are dropped, and its windows that others still watch, having missed them, are
   * read again in full. Ending thousands of watches (each dropped from the index and told on its
   * socket) took 24–40 ms in one step, so it is lane work too, {@link END_CHUNK} watches a unit,
   * ahead of the lane's other work; meanwhile the lane's windows get no checks (nothing would keep
   * up with them) and stay stale, and once its watches have ended, those left are read again.
   */
  private overloaded(lane: string): void {
    this.core.queue.dropMatching(lane);
    this.ending.add(lane);
    // A window's update reads it in full from now on: it has missed checks (handOut keeps it so).
    for (const window of this.core.index.windowsInLane(lane)) window.stale = true;
    const busy = new JoinRefused(
      `This caller's live queries take longer to keep current than the writes leave time for (checks of ` +
        `writes waited over ${this.maxCheckWaitMs / 1000} s): watch fewer queries, or queries that require ` +
        'a field to equal a value',
      'live_queries_busy',
    );
    const ending: WorkUnit[] = [];
    for (const socketId of this.core.index.socketIds()) {
      const own = this.core.index.ofSocket(socketId).filter((subscription) => subscription.owner === lane);
      for (let at = 0; at < own.length; at += END_CHUNK) {
        const chunk = own.slice(at, at + END_CHUNK);
        ending.push(() => this.endWatches(socketId, chunk, busy));
      }
    }
    ending.push(() => this.ended(lane));
    // Ahead of the lane's other work (updates, its waiting requests): until it is done, windows
    // others share with this caller get no checks.
    this.core.queue.pushAhead(lane, ending);
  }

  private endWatches(socketId: string, subscriptions: readonly Subscription[], busy: JoinRefused): void {
    const socket = this.core.findSocket(socketId);
    if (socket) endQueries(this.core, socket, subscriptions, busy);
    else for (const subscription of subscriptions) dropSubscription(this.core, subscription);
  }

  /**
   * The overloaded caller's watches have ended: its windows that others watch and that were not
   * read in full since its last unchecked write (all are marked stale until then) are read now.
   */
  private ended(lane: string): void {
    this.ending.delete(lane);
    for (const window of this.core.index.windowsInLane(lane)) if (window.stale) scheduleUpdate(this.core, window);
  }
}

/** Marks the windows of the chunk the write affects and queues their update. */
function match(core: LiveQueryCore, matching: Matching, windows: readonly LiveWindow[]): void {
  const { write } = matching;
  // One record against each candidate: one query clock for the chunk (query/budget.ts).
  withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () => {
    for (const window of windows) {
      if (!affects(matching, window)) continue;
      window.written(write.record.id, write.type);
      scheduleUpdate(core, window);
    }
  });
}

/** Whether the write may change the window: it holds the record, the record may enter, or it is stale. */
function affects(matching: Matching, window: LiveWindow): boolean {
  const { write } = matching;
  if (window.definition !== matching.definition) return (window.stale = true);
  if (window.ids.has(write.record.id)) return true;
  return write.type !== 'delete' && mayEnter(window, viewFor(matching, window));
}

function describe({ type, entity, record }: PendingWrite): string {
  return `${type} of ${entity} ${record.id}`;
}

function viewFor(matching: Matching, window: LiveWindow): EntityRecord | null {
  const { views, write } = matching;
  if (!views.has(window.viewKey)) views.set(window.viewKey, window.scope?.rules.view(write.record) ?? null);
  return views.get(window.viewKey) ?? null;
}

function mayEnter(window: LiveWindow, view: EntityRecord | null): boolean {
  if (!view) return false;
  try {
    return window.query.filter(view) && window.mayTake(view);
  } catch (error) {
    // Over its budget, say: the window's update runs the same filter and ends its watches with the error.
    if (isRefusal(error)) return true;
    throw error;
  }
}
