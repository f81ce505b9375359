/**
 * @jest-environment node
 *
 * Lanes of live-query work that rest after a long unit (emulator/realtime/live-query-queue.ts): a
 * unit cannot always be cut short (a window's first reading of 5,000 rows and its `subscribed`
 * message), so a caller who asks for such units back to back must not hold the process: tried, one
 * user subscribing to and leaving 10,000-row windows as fast as it could kept another client's
 * reads at a median of 11 ms instead of 2.6 ms. The queue's clock is this test's: units "take" the
 * time they add to it.
 */
import { FairQueue, REST_RATIO, SLICE_MS } from '@/emulator/realtime/live-query-queue';

const LONG_MS = 3 * SLICE_MS;

function queueWithClock() {
  const clock = { now: 1000 };
  const queue = new FairQueue(
    (unit) => unit(),
    () => clock.now,
  );
  const takes =
    (ms: number, then: () => void = () => undefined) =>
    () => {
      clock.now += ms;
      then();
    };
  return { clock, queue, takes };
}

it('rests a lane after a unit longer than a slice, while the other lanes take their turns', () => {
  const { clock, queue, takes } = queueWithClock();
  const ran: string[] = [];
  for (let at = 0; at < 3; at += 1)
    queue.push(
      'heavy',
      takes(LONG_MS, () => ran.push('heavy')),
    );
  for (let at = 0; at < 6; at += 1)
    queue.push(
      'light',
      takes(1, () => ran.push('light')),
    );
  const started = clock.now;
  queue.runUntil(started + 10_000);
  // One heavy unit, then only the light lane's work: the heavy lane rests.
  expect(ran).toEqual(['heavy', 'light', 'light', 'light', 'light', 'light', 'light']);
  expect(queue.isResting('heavy')).toBe(true);
  expect(queue.isResting('light')).toBe(false);
  expect(queue.size).toBe(2);
  // It wakes REST_RATIO times the unit's time after that unit ended; nothing of it runs before.
  const wake = started + LONG_MS * (1 + REST_RATIO);
  expect(queue.nextRunAt()).toBe(wake);
  clock.now = wake - 1;
  queue.runUntil(clock.now + 10_000);
  expect(queue.size).toBe(2);
  clock.now = wake;
  expect(queue.nextRunAt()).toBe(wake);
  queue.runUntil(clock.now + 10_000);
  expect(ran.filter((lane) => lane === 'heavy')).toHaveLength(2);
});

it('never rests a lane whose units fit in a slice, and counts a unit run outside the queue', () => {
  const { clock, queue, takes } = queueWithClock();
  for (let at = 0; at < 50; at += 1) queue.push('light', takes(SLICE_MS));
  queue.runUntil(clock.now + 10_000);
  expect(queue.size).toBe(0);
  expect(queue.isResting('light')).toBe(false);
  expect(queue.nextRunAt()).toBe(Number.POSITIVE_INFINITY);
  // A request that ran at once (not through the queue) and took long rests its lane the same way.
  queue.charge('inline', LONG_MS);
  expect(queue.isResting('inline')).toBe(true);
  queue.push('inline', () => undefined);
  expect(queue.nextRunAt()).toBe(clock.now + LONG_MS * REST_RATIO);
});
