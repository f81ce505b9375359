/**
 * @jest-environment node
 *
 * The I/O floor's rhythm (support/live-query-load/http-floor.ts `framesOfRequest`): the frames per
 * request add up to the average asked for, fractions included, and where a burst is asked for the
 * first of each group carries it and the others share the rest evenly, as benchmark (a)'s creates
 * reach every watcher of a window at once and its other writes move a window now and then.
 */
import { framesOfRequest, type FrameSchedule } from '../../../support/live-query-load/http-floor';

const firstRequests = (schedule: FrameSchedule, requests: number) =>
  Array.from({ length: requests }, (_, at) => framesOfRequest(schedule, at));
const total = (frames: number[]) => frames.reduce((sum, each) => sum + each, 0);

describe('the frames each request of the I/O floor carries', () => {
  it('spreads an average evenly, a fraction adding up over the requests', () => {
    expect(firstRequests({ perRequest: 2.5 }, 4)).toEqual([2, 3, 2, 3]);
    expect(total(firstRequests({ perRequest: 12.75 }, 400))).toBe(5100);
    expect(firstRequests({ perRequest: 0 }, 3)).toEqual([0, 0, 0]);
  });

  it('puts the burst on the first of each group and shares the rest over the others', () => {
    const schedule = { perRequest: 12.75, burst: { every: 5, frames: 50 } };
    const frames = firstRequests(schedule, 500);
    expect(frames.filter((_, at) => at % 5 === 0).every((each) => each === 50)).toBe(true);
    // The others share 5 × 12.75 − 50 = 13.75 a group: 3.4375 each.
    expect(frames.slice(1, 5)).toEqual([3, 3, 4, 3]);
    expect(total(frames)).toBe(500 * 12.75);
  });

  it('never bursts above the average of its group', () => {
    const frames = firstRequests({ perRequest: 2, burst: { every: 5, frames: 50 } }, 10);
    expect(frames).toEqual([10, 0, 0, 0, 0, 10, 0, 0, 0, 0]);
  });
});
