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

export type WorkUnit = () => void;

interface Lane {
  matching: WorkUnit[];
  /** When each of `matching` was queued (performance.now()), in the same order. */
  matchingSince: number[];
  units: WorkUnit[];
}

export class FairQueue {
  /** Lanes with work, in turn order (a Map keeps insertion order: a lane that ran goes to the back). */
  private readonly lanes = new Map<string, Lane>();
  private pending = 0;

  /** `guard` runs each unit so that a failing one cannot stop the others (it logs instead). */
  constructor(private readonly guard: (unit: WorkUnit) => void) {}

  /** Queues work behind the lane's matching and its earlier work. */
  push(lane: string, unit: WorkUnit): void {
    this.laneOf(lane).units.push(unit);
    this.pending += 1;
  }

  /** Queues matching: behind the lane's earlier matching, ahead of its other work. */
  pushMatching(lane: string, unit: WorkUnit): void {
    const queued = this.laneOf(lane);
    queued.matching.push(unit);
    queued.matchingSince.push(performance.now());
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
    return since === undefined ? 0 : performance.now() - since;
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

  /** Runs units, one per lane in turn, until the queue is empty or `deadline` has passed. */
  runUntil(deadline: number): void {
    while (this.pending > 0 && performance.now() < deadline) {
      const [name, lane] = this.lanes.entries().next().value as [string, Lane];
      this.lanes.delete(name);
      const matching = lane.matching.shift();
      if (matching) lane.matchingSince.shift();
      const unit = (matching ?? lane.units.shift()) as WorkUnit;
      if (lane.matching.length > 0 || lane.units.length > 0) this.lanes.set(name, lane);
      this.pending -= 1;
      this.guard(unit);
    }
  }

  private laneOf(name: string): Lane {
    let lane = this.lanes.get(name);
    if (!lane) this.lanes.set(name, (lane = { matching: [], matchingSince: [], units: [] }));
    return lane;
  }
}
