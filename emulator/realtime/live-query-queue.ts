import { performance } from 'node:perf_hooks';

/**
 * Live-query work, in small units, shared fairly: each caller (lane) has a queue of its own, and
 * the lanes take turns one unit at a time, so a caller with a thousand watches to update waits for
 * its own work, not everyone else. The work runs in slices of {@link SLICE_MS} with `setImmediate`
 * between them, so requests (HTTP and socket alike) get through between any two slices.
 */

export const SLICE_MS = 4;

export type WorkUnit = () => void;

export class FairQueue {
  /** Lanes with work, in turn order (a Map keeps insertion order: a lane that ran goes to the back). */
  private readonly lanes = new Map<string, WorkUnit[]>();
  private pending = 0;

  /** `guard` runs each unit so that a failing one cannot stop the others (it logs instead). */
  constructor(private readonly guard: (unit: WorkUnit) => void) {}

  push(lane: string, unit: WorkUnit): void {
    const queue = this.lanes.get(lane);
    if (queue) queue.push(unit);
    else this.lanes.set(lane, [unit]);
    this.pending += 1;
  }

  get size(): number {
    return this.pending;
  }

  /** Runs units, one per lane in turn, until the queue is empty or `deadline` has passed. */
  runUntil(deadline: number): void {
    while (this.pending > 0 && performance.now() < deadline) {
      const [lane, queue] = this.lanes.entries().next().value as [string, WorkUnit[]];
      this.lanes.delete(lane);
      const unit = queue.shift() as WorkUnit;
      if (queue.length > 0) this.lanes.set(lane, queue);
      this.pending -= 1;
      this.guard(unit);
    }
  }
}
