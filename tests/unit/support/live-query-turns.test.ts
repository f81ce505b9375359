/**
 * @jest-environment node
 *
 * Benchmark (a)'s phases in turns with the machine's floor (support/live-query-load/latency.ts):
 * every write is sent once, in turns of nearly equal shares, each right after the floor's share of
 * the same size, and the emulator's CPU counts only its own turns (the floor's turns run while the
 * emulator rests, so CPU it spent then is not a write's).
 */
import { inTurns, MEASURED_TURNS } from '../../../support/live-query-load/latency';

describe('a measured phase in turns with the floor', () => {
  it("splits the writes into turns, each after the floor's turn of the same size", async () => {
    const order: string[] = [];
    await inTurns(
      10,
      async (writes) => void order.push(`floor ${writes}`),
      () => 0,
      async (writes) => void order.push(`emulator ${writes}`),
    );
    expect(MEASURED_TURNS).toBe(4);
    expect(order).toEqual([
      'floor 3',
      'emulator 3',
      'floor 3',
      'emulator 3',
      'floor 2',
      'emulator 2',
      'floor 2',
      'emulator 2',
    ]);
  });

  it("counts the emulator's CPU during its own turns only", async () => {
    let emulatorCpuMs = 0;
    const cpu = await inTurns(
      2000,
      async () => {
        emulatorCpuMs += 7; // the emulator's timers while the floor runs: not a write's
      },
      () => emulatorCpuMs,
      async (writes) => {
        emulatorCpuMs += writes * 1.5;
      },
    );
    expect(cpu).toBe(3000);
  });
});
