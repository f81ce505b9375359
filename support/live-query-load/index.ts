/**
 * The live-query benchmark of `npm run bench` (docs/LIVE-QUERIES.md): write-to-callback latency with
 * 1,000 watches, correctness under 10,000 writes with forced reconnects, and the client's memory per
 * watch, against one emulator in a process of its own. Figures only: nothing here is a timed test.
 */
import { checkCorrectness, type CorrectnessReport } from './correctness';
import { startEmulatorProcess } from './emulator-process';
import { measureLatency, type LatencyReport } from './latency';
import { measureMemory, type MemoryReport } from './memory';

export interface LiveQueryBenchReport {
  latency: LatencyReport;
  correctness: CorrectnessReport & { correct: boolean };
  memory: MemoryReport;
}

export async function runLiveQueryBench({ quick = false } = {}): Promise<LiveQueryBenchReport> {
  const emulator = await startEmulatorProcess();
  try {
    console.log('  write-to-callback latency with 1,000 watches ...');
    const latency = await measureLatency(
      emulator.url,
      { writes: quick ? 100 : 400, writesPerSecond: 50 },
      emulator.cpuMs,
    );
    console.log('  correctness under writes and forced reconnects ...');
    const correctness = await checkCorrectness(emulator.url, { writes: quick ? 2000 : 10_000 });
    console.log('  memory per watch ...');
    const memory = await measureMemory(emulator.url);
    const correct = correctness.mismatched === 0 && correctness.duplicated === 0 && correctness.errors === 0;
    return { latency, correctness: { ...correctness, correct }, memory };
  } finally {
    await emulator.stop();
  }
}

export function formatLiveQueryBenchRows(report: LiveQueryBenchReport): [string, string, string][] {
  const { latency, correctness, memory } = report;
  return [
    [
      `Live queries: write to callback (${latency.watches} watches, ${latency.sockets} sockets)`,
      `p50 ${latency.latencyMs.p50.toFixed(1)} ms, p99 ${latency.latencyMs.p99.toFixed(1)} ms`,
      `${latency.deliveries}/${latency.expectedDeliveries} deliveries of ${latency.writes} writes; max ${latency.latencyMs.max.toFixed(1)} ms; CPU ${latency.serverCpuMsPerWrite.toFixed(2)} ms per write (emulator), ${latency.clientCpuMsPerDelivery.toFixed(2)} ms per delivery (clients)`,
    ],
    [
      `Live queries: ${correctness.writes} writes, ${correctness.forcedReconnects} forced reconnects`,
      correctness.correct ? 'all equal to filter()' : 'INCORRECT',
      `${correctness.watches} watches, ${correctness.snapshots} snapshots; mismatched ${correctness.mismatched}, duplicated ${correctness.duplicated}, errors ${correctness.errors}; ${correctness.disconnectsHeard} disconnects heard`,
    ],
    [
      'Live queries: client memory per watch',
      `${(memory.bytesPerWatch / 1024).toFixed(2)} KB`,
      `${memory.watches} distinct watches of ${memory.recordsPerResult} records each, heap after GC`,
    ],
  ];
}
