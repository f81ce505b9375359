import { performance } from 'node:perf_hooks';

import type { EntityRecord } from '../core/types';
import { DEFAULT_QUERY_BUDGET_MS, withOwnQueryBudget } from '../query/budget';
import { definitionOf } from './live-query-access';
import { isRefusal, type LiveQueryCore } from './live-query-core';
import { scheduleUpdate } from './live-query-delivery';
import type { LiveWindow, WriteType } from './live-query-window';

/**
 * The first step of live-query work after a write (docs/LIVE-QUERIES.md): each write is matched
 * against the windows it may affect, one record against each candidate's filter as that window's
 * view sees it, and the affected windows are queued for their update. A caller may hold thousands
 * of windows whose filters no index narrows, each a filter of up to 2,000 nodes, so one write can
 * take tens of milliseconds to match: the matching stops at the slice's deadline and goes on in the
 * next slice, so requests get through in between (a write is never matched twice, and no window is
 * updated before every write before it has been matched against it).
 */

export interface PendingWrite {
  appId: string;
  entity: string;
  type: WriteType;
  record: EntityRecord;
}

/** A write part-way through its candidates. */
interface Matching {
  write: PendingWrite;
  candidates: LiveWindow[];
  next: number;
  /** The entity's rules and schema when the matching began: a window read under others is stale. */
  definition: unknown;
  /** The record as each view sees it, made once per view for all its windows. */
  views: Map<string, EntityRecord | null>;
}

/** How many candidates are matched between two looks at the clock. */
const CANDIDATES_PER_LOOK = 16;

export class WriteIntake {
  private writes: PendingWrite[] = [];
  private nextWrite = 0;
  private matching: Matching | undefined;

  constructor(
    private readonly core: LiveQueryCore,
    /** Told once a write of a user's record has been matched (its rules may now see differently). */
    private readonly onUserWritten: (appId: string, userId: string) => void,
    private readonly userEntity: string,
  ) {}

  push(write: PendingWrite): void {
    this.writes.push(write);
  }

  /** True while some write has not been matched against all its candidates. */
  get pending(): boolean {
    return this.matching !== undefined || this.nextWrite < this.writes.length;
  }

  /** Matches writes, in order, until all are matched (true) or `deadline` has passed (false). */
  runUntil(deadline: number): boolean {
    while (this.pending && performance.now() < deadline) {
      const matching = this.matching ?? this.begin();
      const ok = this.core.isolated(describe(matching.write), () => this.match(matching, deadline));
      // A write whose matching failed is left there (logged), as before it could be resumed.
      if (!ok || matching.next >= matching.candidates.length) this.end(matching);
    }
    if (this.pending) return false;
    this.writes = [];
    this.nextWrite = 0;
    return true;
  }

  private begin(): Matching {
    const write = this.writes[this.nextWrite] as PendingWrite;
    this.nextWrite += 1;
    const { appId, entity, type, record } = write;
    this.matching = {
      write,
      candidates: this.core.index.candidates(appId, entity, record, type === 'delete'),
      next: 0,
      definition: definitionOf(this.core.context, appId, entity),
      views: new Map(),
    };
    return this.matching;
  }

  private end(matching: Matching): void {
    this.matching = undefined;
    const { appId, entity, record } = matching.write;
    if (entity === this.userEntity) this.onUserWritten(appId, record.id);
  }

  /** Marks the candidates the write affects, until they are all matched or the deadline has passed. */
  private match(matching: Matching, deadline: number): void {
    const { write, candidates } = matching;
    // One record against each candidate: one query clock for this slice's share of them (query/budget.ts).
    withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () => {
      while (matching.next < candidates.length) {
        const window = candidates[matching.next] as LiveWindow;
        matching.next += 1;
        if (affects(matching, window)) {
          window.dirty.add(write.record.id);
          window.cause ??= { type: write.type, id: write.record.id };
          scheduleUpdate(this.core, window);
        }
        if (matching.next % CANDIDATES_PER_LOOK === 0 && performance.now() >= deadline) return;
      }
    });
  }
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
