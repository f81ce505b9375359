/**
 * @jest-environment node
 *
 * The query time budget (query/budget.ts), where it is deterministic: no clock is read to decide
 * the outcome. A budget below zero is spent by any elapsed time, so such a clock refuses at its
 * first check (every 64th evaluation, the first one starting it); an infinite one never does. The
 * two tests at the end read the clocks, with margins no load can take away: a thread that sleeps
 * uses no CPU, and a spin that waits for the process's CPU time to pass the budget has used it.
 */
import {
  chargeQueryEvaluation,
  DEFAULT_QUERY_BUDGET_MS,
  outsideQueryBudget,
  QueryClock,
  withOwnQueryBudget,
} from '@/emulator/query/budget';
import { compileFilter } from '@/emulator/query/engine';

import { failureOf } from '../emulator-kit';

const SPENT = -1;
const OVER_BUDGET = {
  kind: 'over_budget',
  code: 'query_time_budget_exceeded',
  message: 'The query ran longer than its budget of -1 ms per request; narrow the filter',
};

const charge = (times: number) => {
  for (let at = 0; at < times; at += 1) chargeQueryEvaluation();
};

it('the default budget is half a second per request', () => {
  expect(DEFAULT_QUERY_BUDGET_MS).toBe(500);
});

it('outside any request nothing is counted', () => {
  expect(() => charge(10_000)).not.toThrow();
});

it('a spent clock refuses at the 64th evaluation, not before', () => {
  withOwnQueryBudget(SPENT, () => {
    charge(63);
    expect(failureOf(() => chargeQueryEvaluation())).toEqual(OVER_BUDGET);
  });
});

it('an infinite budget never refuses', () => {
  expect(() => withOwnQueryBudget(Infinity, () => charge(10_000))).not.toThrow();
});

it("a request's clock spans every stretch of work run on it", () => {
  const clock = new QueryClock(SPENT);
  clock.run(() => charge(32));
  clock.run(() => charge(31));
  expect(failureOf(() => clock.run(() => chargeQueryEvaluation()))).toEqual(OVER_BUDGET);
});

it('what async work does after an await runs on no clock unless run on one again', async () => {
  const clock = new QueryClock(SPENT);
  await clock.run(async () => {
    charge(63);
    await Promise.resolve();
    expect(() => charge(1000)).not.toThrow();
    expect(failureOf(() => clock.run(() => chargeQueryEvaluation()))).toEqual(OVER_BUDGET);
  });
});

it('work on its own clock neither uses nor escapes the clock of the request it starts from', () => {
  new QueryClock(SPENT).run(() => {
    charge(63);
    expect(() => withOwnQueryBudget(Infinity, () => charge(1000))).not.toThrow();
    expect(failureOf(() => chargeQueryEvaluation())).toEqual(OVER_BUDGET);
  });
});

it('work outside any budget is not counted, and the clock it leaves counts on afterwards', () => {
  new QueryClock(SPENT).run(() => {
    charge(63);
    expect(() => outsideQueryBudget(() => charge(1000))).not.toThrow();
    expect(failureOf(() => chargeQueryEvaluation())).toEqual(OVER_BUDGET);
  });
});

it('a clock stops being current when its work throws', () => {
  const clock = new QueryClock(SPENT);
  expect(() =>
    clock.run(() => {
      throw new Error('failed');
    }),
  ).toThrow('failed');
  expect(() => charge(1000)).not.toThrow();
});

it('every record a compiled filter evaluates is charged', () => {
  const filter = compileFilter({ team: 'red' });
  const records = Array.from({ length: 64 }, () => ({ team: 'blue' }));
  withOwnQueryBudget(SPENT, () => {
    expect(failureOf(() => records.filter(filter)).code).toBe('query_time_budget_exceeded');
  });
  withOwnQueryBudget(SPENT, () => {
    expect(records.slice(1).filter(filter)).toEqual([]);
  });
});

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Blocks this thread for `ms` without using the CPU, as a process waiting for a core does. */
const sleepWithoutCpu = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs (using the CPU) until `ms` have passed. */
const spinFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/** Runs until the process has used `ms` more of CPU time, however long that takes. */
const spinForCpu = (ms: number) => {
  const cpuAtStart = cpuMs();
  while (cpuMs() - cpuAtStart <= ms);
};

/**
 * On a clock of 200 ms: the first evaluation, 110 ms of running, then the 64th evaluation, the
 * first check past half the budget, where the clock first reads the CPU time.
 */
const runPastHalfway = () => {
  chargeQueryEvaluation();
  spinFor(110);
  charge(63);
};

it('once half the budget has passed, time the process spent waiting, not running, is not charged', () => {
  new QueryClock(200).run(() => {
    runPastHalfway();
    sleepWithoutCpu(400);
    expect(() => charge(64 * 4)).not.toThrow();
  });
});

it('the first half of the budget is charged as time passed, running or not', () => {
  new QueryClock(200).run(() => {
    chargeQueryEvaluation();
    sleepWithoutCpu(250);
    charge(62);
    expect(failureOf(() => chargeQueryEvaluation())).toMatchObject({ code: 'query_time_budget_exceeded' });
  });
});

it('a query that ran past its budget is refused, whatever it waited on the way', () => {
  new QueryClock(200).run(() => {
    runPastHalfway();
    sleepWithoutCpu(300);
    spinForCpu(150);
    charge(63);
    expect(failureOf(() => chargeQueryEvaluation())).toMatchObject({ code: 'query_time_budget_exceeded' });
  });
});
