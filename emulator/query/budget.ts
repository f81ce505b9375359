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
 * The budget counts the time the process actually ran since the clock started, never more than the
 * time that passed: the smaller of the two. Time alone would refuse a query because the machine was
 * busy with other work (a CI machine running browsers beside the tests answered a 100 ms `$in` with
 * 503, its wall clock past 500 ms while the emulator waited for a core); CPU time alone could exceed
 * the time that passed when V8's or libuv's threads work beside the query. Reading the CPU time is a
 * system call, so it is read only once the cheap wall clock says the budget may be spent.
 */
export class QueryClock {
  private startedAt: number | null = null;
  private cpuAtStart = 0;
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
      this.cpuAtStart = processCpuMs();
      this.nextCheckAt = this.startedAt + this.budgetMs;
      return;
    }
    if (this.evaluations % CHECK_EVERY !== 0) return;
    const now = performance.now();
    if (now <= this.nextCheckAt) return;
    const ran = Math.min(now - this.startedAt, processCpuMs() - this.cpuAtStart);
    if (ran > this.budgetMs) {
      throw new DomainError(
        'over_budget',
        'query_time_budget_exceeded',
        `The query ran longer than its budget of ${this.budgetMs} ms per request; narrow the filter`,
      );
    }
    // The process ran for only part of the time that passed: what is left of the budget cannot be
    // spent before that much more time has passed.
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
