import { performance } from 'node:perf_hooks';

import { DomainError } from '../core/errors';

/**
 * The time budget of one request's queries. Filters run synchronously, so a costly one would hold
 * the whole process (and every other caller) until it ends; instead every compiled filter counts its
 * evaluations and, every few records, checks the clock it runs on. A request owns one clock
 * (http/handle.ts starts it) for all its queries; the clock starts at its first evaluation, so
 * reading a large upload does not eat into it. Live queries, which run whole queries outside any
 * request, run each on a clock of their own (withOwnQueryBudget); room deliveries evaluate one
 * record per subscriber, for nobody's request, and run on none (outsideQueryBudget).
 *
 * The clock is handed over explicitly: evaluation is synchronous, so the clock is "current" only
 * while synchronous work runs on it (QueryClock.run), and a request runs on it each stretch of its
 * own code that queries: the handler's start (http/handle.ts) and what follows an await
 * (routes/entities.ts, entity-reads.ts, entity-bulk-writes.ts). Node's AsyncLocalStorage would
 * follow the request through awaits by itself, but its first use installs async hooks for the
 * whole process, which every promise and timer of every request and socket then pays for; and it
 * also followed the request into work it sets off for others (a room's deliveries after a write),
 * charging that to the write.
 */

export const DEFAULT_QUERY_BUDGET_MS = 500;
const CHECK_EVERY = 64;

/** CPU time this process has used (user + system, all threads), in ms. */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The budget counts the time the process ran, not the time that passed: by the time alone, a
 * machine busy with other work turned valid queries into 503s (a CI machine running browsers beside
 * the tests answered a `$in` of 100 ms with 503, its wall clock past 500 ms while the emulator waited
 * for a core). Reading the CPU time is a system call (about 1.4 µs here), and most clocks (every
 * request, every live-query update) end within microseconds, so a clock reads it only once half its
 * budget has passed: that first half is charged as time passed, what follows as the smaller of the
 * time passed and the process's CPU time (which, counting V8's and libuv's threads too, could
 * otherwise outrun the time that passed). A query the machine slows down may therefore take longer
 * than its budget, but never runs for more than it.
 */
export class QueryClock {
  private startedAt: number | null = null;
  /** When the CPU time was first read (wall-clock ms) and what it was (ms). */
  private checkpoint: { at: number; cpuMs: number } | null = null;
  /** Until this wall-clock moment the budget cannot be spent, whatever the CPU time says. */
  private nextCheckAt = 0;
  private evaluations = 0;

  constructor(private readonly budgetMs: number) {}

  /**
   * Runs `work` on this clock: the evaluations it makes until it returns are charged here. Only
   * synchronous work: what an async `work` does after its first await runs on no clock unless it
   * runs on one again.
   */
  run<T>(work: () => T): T {
    return runOn(this, work);
  }

  /** One record evaluated; throws 503 once the clock has run longer than its budget. */
  charge(): void {
    this.evaluations += 1;
    if (this.startedAt === null) {
      this.startedAt = performance.now();
      this.nextCheckAt = this.startedAt + this.budgetMs / 2;
      return;
    }
    if (this.evaluations % CHECK_EVERY !== 0) return;
    const now = performance.now();
    if (now <= this.nextCheckAt) return;
    const cpuMs = processCpuMs();
    this.checkpoint ??= { at: now, cpuMs };
    const ran = this.checkpoint.at - this.startedAt + Math.min(now - this.checkpoint.at, cpuMs - this.checkpoint.cpuMs);
    if (ran > this.budgetMs) {
      throw new DomainError(
        'over_budget',
        'query_time_budget_exceeded',
        `The query ran longer than its budget of ${this.budgetMs} ms per request; narrow the filter`,
      );
    }
    // What has run grows no faster than the time that passes: no need to look again before this.
    this.nextCheckAt = now + (this.budgetMs - ran);
  }
}

/** The clock synchronous work runs on now; null: none (nothing is counted). */
let current: QueryClock | null = null;

/** Called once per record a filter evaluates; throws 503 once the current clock has used its budget. */
export function chargeQueryEvaluation(): void {
  current?.charge();
}

/**
 * Runs synchronous work on its own query clock, apart from the request it may have been started
 * from: a live query's evaluation must neither use up the budget of the write that triggered it nor
 * run without one.
 */
export function withOwnQueryBudget<T>(budgetMs: number, run: () => T): T {
  return new QueryClock(budgetMs).run(run);
}

/** Runs synchronous work on no clock: work for others that a request sets off, not its own queries. */
export function outsideQueryBudget<T>(run: () => T): T {
  return runOn(null, run);
}

function runOn<T>(clock: QueryClock | null, work: () => T): T {
  const outer = current;
  current = clock;
  try {
    return work();
  } finally {
    current = outer;
  }
}
