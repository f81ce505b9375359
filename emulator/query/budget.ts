import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

import { DomainError } from '../core/errors';

/**
 * The time budget of one request's queries. Filters run synchronously, so a costly one would hold
 * the whole process (and every other caller) until it ends; instead every compiled filter counts its
 * evaluations and, every few records, checks the clock of the request it runs in. The clock starts at
 * the request's first evaluation, so reading a large upload does not eat into it. Room deliveries
 * evaluate one record at a time and need none; live queries, which run whole queries outside any
 * request, run each on a clock of their own (withOwnQueryBudget).
 */

export const DEFAULT_QUERY_BUDGET_MS = 500;
const CHECK_EVERY = 64;

interface RequestClock {
  readonly budgetMs: number;
  startedAt: number | null;
  evaluations: number;
}

const clocks = new AsyncLocalStorage<RequestClock>();

/** Runs one request with its own query clock. */
export function withQueryBudget<T>(budgetMs: number, run: () => Promise<T>): Promise<T> {
  return clocks.run({ budgetMs, startedAt: null, evaluations: 0 }, run);
}

/** Called once per record a filter evaluates; throws 503 once the request has used its budget. */
export function chargeQueryEvaluation(): void {
  const clock = clocks.getStore();
  if (!clock) return;
  clock.evaluations += 1;
  if (clock.startedAt === null) {
    clock.startedAt = performance.now();
    return;
  }
  if (clock.evaluations % CHECK_EVERY !== 0) return;
  if (performance.now() - clock.startedAt > clock.budgetMs) {
    throw new DomainError(
      'over_budget',
      'query_time_budget_exceeded',
      `The query ran longer than its budget of ${clock.budgetMs} ms per request; narrow the filter`,
    );
  }
}

/**
 * Runs synchronous work on its own query clock, apart from the request it may have been started
 * from: a live query's evaluation must neither use up the budget of the write that triggered it nor
 * run without one.
 */
export function withOwnQueryBudget<T>(budgetMs: number, run: () => T): T {
  return clocks.run({ budgetMs, startedAt: null, evaluations: 0 }, run);
}
