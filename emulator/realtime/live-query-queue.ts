import { performance } from 'node:perf_hooks';

/**
 * Live-query work, in small units, shared fairly: each caller (lane) has a queue of its own, and
 * the lanes take turns one unit at a time, so a caller with a thousand watches to update waits for
 * its own work, not everyone else. The work runs in slices of {@link SLICE_MS} with `setImmediate`
 * between them, so requests (HTTP and socket alike) get through between any two slices.
 *
 * A lane's matching (writes checked against the lane's windows, live-query-intake.ts) runs before
 * its other work: a window belongs to one lane, so it is updated only once every write handed to
 * the queue so far has been matched against it, while another lane's matching never waits for it.
 */

export const SLICE_MS = 4;

/**
 * A lane whose unit ran longer than a slice rests this many times as long before its next one. A
 * unit cannot always be cut short (the first reading of a window and its `subscribed` message: 8–84
 * ms for 5,000 rows), and every other request waits while one runs: a caller who asked for such
 * units back to back (tried: one user subscribing to and leaving windows of 10,000 rows on 5,000
 * records as fast as five sockets allowed) kept another client's reads at a median of 11 ms instead
 * of 2.6 ms. Resting, such a caller has a quarter of the time at most; others' units run meanwhile.
 */
export const REST_RATIO = 3;

export type WorkUnit = () => void;

interface Lane {
  matching: WorkUnit[];
  /** When each of `matching` was queued (the queue's clock), in the same order. */
  matchingSince: number[];
  units: WorkUnit[];
}

export class FairQueue {
  /** Lanes with work, in turn order (a Map keeps insertion order: a lane that ran goes to the back). */
  private readonly lanes = new Map<string, Lane>();
  /** Lanes resting after a long unit, until when (the queue's clock). */
  private readonly restingUntil = new Map<string, number>();
  private pending = 0;

  /**
   * `guard` runs each unit so that a failing one cannot stop the others (it logs instead); `clock`
   * tells the time in milliseconds (performance.now(); tests pass their own).
   */
  constructor(
    private readonly guard: (unit: WorkUnit) => void,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Queues work behind the lane's matching and its earlier work. */
  push(lane: string, unit: WorkUnit): void {
    this.laneOf(lane).units.push(unit);
    this.pending += 1;
  }

  /** Queues matching: behind the lane's earlier matching, ahead of its other work. */
  pushMatching(lane: string, unit: WorkUnit): void {
    const queued = this.laneOf(lane);
    queued.matching.push(unit);
    queued.matchingSince.push(this.clock());
    this.pending += 1;
  }

  /** Queues work, in this order, ahead of the lane's other work (behind its matching). */
  pushAhead(lane: string, units: readonly WorkUnit[]): void {
    this.laneOf(lane).units.unshift(...units);
    this.pending += units.length;
  }

  /** How long the lane's oldest waiting matching has waited (ms; 0 when none waits). */
  matchingWait(lane: string): number {
    const since = this.lanes.get(lane)?.matchingSince[0];
    return since === undefined ? 0 : this.clock() - since;
  }

  /** Forgets the lane's waiting matching (its caller was told it cannot keep up). */
  dropMatching(lane: string): void {
    const queued = this.lanes.get(lane);
    if (!queued) return;
    this.pending -= queued.matching.length;
    queued.matching = [];
    queued.matchingSince = [];
    if (queued.units.length === 0) this.lanes.delete(lane);
  }

  get size(): number {
    return this.pending;
  }

  /**
   * Counts a unit of the lane that ran for `ms` (in the queue, or a request run at once): one longer
   * than a slice makes the lane rest {@link REST_RATIO} times as long.
   */
  charge(lane: string, ms: number): void {
    if (ms <= SLICE_MS) return;
    const now = this.clock();
    if (this.restingUntil.size > 1000)
      for (const [name, until] of this.restingUntil) if (until <= now) this.restingUntil.delete(name);
    this.restingUntil.set(lane, now + ms * REST_RATIO);
  }

  /** Whether the lane rests now after a long unit. */
  isResting(lane: string, now = this.clock()): boolean {
    const until = this.restingUntil.get(lane);
    if (until === undefined) return false;
    if (until > now) return true;
    this.restingUntil.delete(lane);
    return false;
  }

  /** When a unit can run next: now when some lane with work is awake, else when the first wakes; Infinity when none waits. */
  nextRunAt(): number {
    const now = this.clock();
    let first = Number.POSITIVE_INFINITY;
    for (const name of this.lanes.keys()) {
      if (!this.isResting(name, now)) return now;
      first = Math.min(first, this.restingUntil.get(name) as number);
    }
    return first;
  }

  /** Runs units, one per awake lane in turn, until none can run or `deadline` has passed. */
  runUntil(deadline: number): void {
    while (this.pending > 0) {
      const now = this.clock();
      if (now >= deadline) return;
      const name = this.firstAwake(now);
      if (name === undefined) return;
      const lane = this.lanes.get(name) as Lane;
      this.lanes.delete(name);
      const matching = lane.matching.shift();
      if (matching) lane.matchingSince.shift();
      const unit = (matching ?? lane.units.shift()) as WorkUnit;
      if (lane.matching.length > 0 || lane.units.length > 0) this.lanes.set(name, lane);
      this.pending -= 1;
      this.guard(unit);
      this.charge(name, this.clock() - now);
    }
  }

  private firstAwake(now: number): string | undefined {
    for (const name of this.lanes.keys()) if (!this.isResting(name, now)) return name;
    return undefined;
  }

  private laneOf(name: string): Lane {
    let lane = this.lanes.get(name);
    if (!lane) this.lanes.set(name, (lane = { matching: [], matchingSince: [], units: [] }));
    return lane;
  }
}
