/**
 * The correctness half of tools/bench/realtime.ts, short enough for every test run: 10 clients
 * with a socket each, 200 entity writes per second for 2 s. Every client must receive every event,
 * and each record's events in the order they were written. Timing is the benchmark's business, not
 * asserted here.
 */
import {
  analyseDeliveries,
  runRealtimeBench,
  type Delivery,
  type RealtimeBenchReport,
  type WriteOp,
} from '@/support/realtime-load';

let report: RealtimeBenchReport;
beforeAll(async () => {
  report = await runRealtimeBench({ clients: 10, writesPerSecond: 200, durationMs: 2000, records: 10 });
}, 60_000);

it('wrote everything it planned', () => {
  expect(report.failedWrites).toBe(0);
  expect(report.writes).toBe(400);
  expect(report.expectedDeliveries).toBe(4000);
});

it('delivered every event to every client, nothing missing and nothing extra', () => {
  expect(report.missing).toBe(0);
  expect(report.unexpected).toBe(0);
  expect(report.deliveries).toBe(report.expectedDeliveries);
  expect(report.subscriberErrors).toBe(0);
  expect(report.complete).toBe(true);
});

it('delivered the events of each record in the order they were written', () => {
  expect(report.outOfOrder).toBe(0);
  expect(report.ordered).toBe(true);
});

describe('the delivery analysis (so the checks above can fail)', () => {
  const written: WriteOp[][] = [
    [
      { record: 0, type: 'create', version: 0, sentAt: 0 },
      { record: 0, type: 'update', version: 1, sentAt: 10 },
      { record: 0, type: 'delete', version: 2, sentAt: 20 },
    ],
  ];
  const ids = ['r0'];
  const create: Delivery = { id: 'r0', type: 'create', version: 0, at: 5 };
  const update: Delivery = { id: 'r0', type: 'update', version: 1, at: 13 };
  // A delete carries the record as it last was, so its version is the previous write's.
  const remove: Delivery = { id: 'r0', type: 'delete', version: 1, at: 21 };

  it('accepts complete, ordered deliveries and measures their latency', () => {
    expect(analyseDeliveries(written, ids, [[create, update, remove]])).toEqual({
      missing: 0,
      unexpected: 0,
      outOfOrder: 0,
      latencies: [1, 3, 5],
    });
  });

  it('counts a missing event, a duplicate and an unknown record', () => {
    const stranger: Delivery = { id: 'elsewhere', type: 'create', version: 0, at: 1 };
    expect(
      analyseDeliveries(written, ids, [
        [create, remove],
        [create, create, update, remove, stranger],
      ]),
    ).toMatchObject({
      missing: 1,
      unexpected: 2,
    });
  });

  it('flags events of a record that arrive in another order', () => {
    expect(analyseDeliveries(written, ids, [[update, create, remove]])).toMatchObject({ missing: 0, outOfOrder: 1 });
  });
});
