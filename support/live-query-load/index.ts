/**
 * The live-query benchmark of `npm run bench` (docs/LIVE-QUERIES.md), against one emulator in a
 * process of its own: write-to-callback latency and the emulator's CPU per write with 1,000 watches
 * over 20,000 records, correctness under 10,000 writes with forced reconnects, one user who
 * overdoes it (another client's reads and the emulator's memory), and the client's memory per
 * watch. Figures only: nothing here is a timed test; goals are reported as met or missed.
 */
import { ABUSE_ENTITIES, measureAbuse, type AbuseReport } from './abuse';
import { checkCorrectness, CORRECTNESS_ENTITY, type CorrectnessReport } from './correctness';
import { COSTLY_ENTITIES, measureCostly, type CostlyReport } from './costly';
import { startEmulatorProcess } from './emulator-process';
import { startHttpFloor, type HttpFloorReport } from './http-floor';
import { LATENCY_ENTITIES, LATENCY_SOCKETS, measureLatency, warmUpWrites, type LatencyReport } from './latency';
import { measureMemory, MEMORY_ENTITY, type MemoryReport } from './memory';

export interface LiveQueryBenchReport {
  latency: LatencyReport;
  /** Benchmark (a)'s writes answered by Node's HTTP server alone: the machine's floor per write. */
  httpFloor: HttpFloorReport;
  correctness: CorrectnessReport & { correct: boolean };
  abuse: AbuseReport;
  costly: CostlyReport;
  memory: MemoryReport;
}

/** Issue 33's goals on this 2-core machine. */
export const LIVE_QUERY_GOALS = {
  latencyP99Ms: 20,
  /**
   * The emulator's CPU per watched write as a multiple of the machine's floor measured in the same
   * run: the issue's 2 ms, stated where the floor was 1.03 ms. The machine's speed has since moved
   * both figures by ×1.8 at once, so an absolute 2 ms would pass on a faster machine what it
   * failed on a slower one.
   */
  serverCpuOfFloor: 2 / 1.03,
  otherReadP99Ms: 50,
  rssGrowthMiB: 200,
};

export async function runLiveQueryBench({ quick = false } = {}): Promise<LiveQueryBenchReport> {
  const pace = { writes: quick ? 500 : 2000, writesPerSecond: 100 };
  console.log("  the machine's floor: the same creates answered by a bare Node HTTP server, warming up ...");
  const floor = await startHttpFloor({
    requestsPerSecond: pace.writesPerSecond,
    warmUpRequests: warmUpWrites(pace.writes),
    sockets: LATENCY_SOCKETS,
  });
  const emulator = await startEmulatorProcess([
    ...LATENCY_ENTITIES,
    CORRECTNESS_ENTITY,
    MEMORY_ENTITY,
    ...ABUSE_ENTITIES,
    ...COSTLY_ENTITIES,
  ]).catch(async (error: unknown) => {
    await floor.stop();
    throw error;
  });
  try {
    console.log('  write-to-callback latency with 1,000 watches over 20,000 records, in turns with the floor ...');
    const latency = await measureLatency(emulator.url, pace, emulator.cpuMs, (requests, frames) =>
      floor.turn(requests, frames),
    );
    const httpFloor = floor.report();
    await floor.stop();
    console.log('  correctness under writes and forced reconnects ...');
    const correctness = await checkCorrectness(emulator.url, { writes: quick ? 2000 : 10_000 });
    console.log('  memory per watch ...');
    const memory = await measureMemory(emulator.url);
    console.log('  one user with 1,000 watches of 10,000 rows ...');
    const abuse = await measureAbuse(emulator.url, emulator.rssBytes, { seconds: quick ? 5 : 10 });
    console.log('  one user asking for 2,000 windows of the costliest filters ...');
    const costly = await measureCostly(emulator.url, emulator.rssBytes, { seconds: quick ? 10 : 15 });
    const correct =
      correctness.mismatched === 0 &&
      correctness.duplicated === 0 &&
      correctness.errors === 0 &&
      abuse.unanswered === 0 &&
      costly.otherDelivered === costly.otherWrites;
    return { latency, httpFloor, correctness: { ...correctness, correct }, abuse, costly, memory };
  } finally {
    await Promise.all([emulator.stop(), floor.stop()]);
  }
}

/** The I/O floor beside the goal's: how much of a watched write is the emulator's own code. */
function ioFloorNote(cpu: number, { withFrames }: HttpFloorReport, latency: LatencyReport): string {
  const { cpuMsPerRequest, framesPerRequest, burst } = withFrames;
  if (!Number.isFinite(cpuMsPerRequest)) return 'the I/O floor not measured';
  const rhythm = burst ? `, ${burst.frames} at once with one request in ${burst.every} as with the creates` : '';
  return `the I/O floor, the same creates also written as ${framesPerRequest.toFixed(1)} update_model frames each on average${rhythm}, to ${latency.sockets} sockets (the deliveries heard per warm-up write; ${latency.updatesPerWrite.toFixed(1)} per measured write) by the same bare server: ${cpuMsPerRequest.toFixed(2)} ms, the emulator ×${(cpu / cpuMsPerRequest).toFixed(2)} it`;
}

const goal = (value: number, limit: number) =>
  !Number.isFinite(value) ? 'not measured' : value <= limit ? 'met' : 'MISSED';
const MiB = (bytes: number) => bytes / 1024 / 1024;
const refusals = (byCode: Record<string, number>) =>
  Object.entries(byCode)
    .map(([code, count]) => `, ${count} watches refused (${code})`)
    .join('');

export function formatLiveQueryBenchRows(report: LiveQueryBenchReport): [string, string, string][] {
  const { latency, httpFloor, correctness, abuse, costly, memory } = report;
  const cpu = latency.serverCpuMsPerWrite;
  const floor = httpFloor.cpuMsPerRequest;
  const ofFloor = (value: number) => `×${(value / floor).toFixed(2)}`;
  return [
    [
      `Live queries: write to callback (${latency.records.toLocaleString('en-US')} records, ${latency.watches} watches of 50, ${latency.writesPerSecond.toFixed(0)} writes/s)`,
      `p50 ${latency.latencyMs.p50.toFixed(1)} ms, p99 ${latency.latencyMs.p99.toFixed(1)} ms`,
      `goal p99 ≤ ${LIVE_QUERY_GOALS.latencyP99Ms} ms: ${goal(latency.latencyMs.p99, LIVE_QUERY_GOALS.latencyP99Ms)}; emulator CPU ${cpu.toFixed(2)} ms per write, ${ofFloor(cpu)} the machine's floor (goal ≤ ×${LIVE_QUERY_GOALS.serverCpuOfFloor.toFixed(2)}, the issue's 2 ms where the floor was 1.03 ms: ${goal(cpu / floor, LIVE_QUERY_GOALS.serverCpuOfFloor)}; ${latency.referenceCpuMsPerWrite.toFixed(2)} ms with nobody watching, ${ofFloor(latency.referenceCpuMsPerWrite)} the floor; the floor, the same creates answered by a bare Node HTTP server at the same pace, in ${httpFloor.turns} turns with the emulator's: ${floor.toFixed(2)} ms; ${ioFloorNote(cpu, httpFloor, latency)}; after ${latency.warmUpWrites} warm-up writes, which cost ${latency.warmUpCpuMsPerWrite.toFixed(2)} ms each); ${latency.distinctQueries} distinct queries on ${latency.sockets} sockets${refusals(latency.refusedWatches)}; ${latency.deliveries}/${latency.expectedDeliveries} deliveries of ${latency.writes} writes (max ${latency.latencyMs.max.toFixed(1)} ms); ${latency.clientCpuMsPerDelivery.toFixed(2)} ms client CPU per delivery`,
    ],
    [
      `Live queries: one user's ${abuse.watches} watches of 10,000 on ${abuse.records.toLocaleString('en-US')} records, ${abuse.writes / 10} s of writes: another client's reads`,
      `p50 ${abuse.otherReadMs.p50.toFixed(1)} ms, p99 ${abuse.otherReadMs.p99.toFixed(1)} ms`,
      `goal p99 ≤ ${LIVE_QUERY_GOALS.otherReadP99Ms} ms: ${goal(abuse.otherReadMs.p99, LIVE_QUERY_GOALS.otherReadP99Ms)}; emulator RSS +${MiB(abuse.rssGrowthBytes).toFixed(0)} MiB (goal ≤ ${LIVE_QUERY_GOALS.rssGrowthMiB} MiB: ${goal(MiB(abuse.rssGrowthBytes), LIVE_QUERY_GOALS.rssGrowthMiB)}); ${abuse.accepted} watches accepted, ${abuse.refused} refused with live_rows_exceeded, ${abuse.unanswered} unanswered; ${abuse.otherReads} reads, max ${abuse.otherReadMs.max.toFixed(1)} ms; alone before: p50 ${abuse.referenceReadMs.p50.toFixed(1)} ms, p99 ${abuse.referenceReadMs.p99.toFixed(1)} ms`,
    ],
    [
      `Live queries: the same user subscribing to and leaving windows of 10,000 rows as fast as 5 sockets allow (another process), ${abuse.churn.seconds} s: another client's reads`,
      `p50 ${abuse.churn.otherReadMs.p50.toFixed(1)} ms, p99 ${abuse.churn.otherReadMs.p99.toFixed(1)} ms`,
      `goal p99 ≤ ${LIVE_QUERY_GOALS.otherReadP99Ms} ms: ${goal(abuse.churn.otherReadMs.p99, LIVE_QUERY_GOALS.otherReadP99Ms)}; max ${abuse.churn.otherReadMs.max.toFixed(1)} ms; ${abuse.churn.subscriptions} subscriptions answered (each reads and sends 5,000 records; such a caller rests 3× as long as each took); alone before: p50 ${abuse.referenceReadMs.p50.toFixed(1)} ms, p99 ${abuse.referenceReadMs.p99.toFixed(1)} ms`,
    ],
    [
      `Live queries: one user asking for ${costly.watches} windows of a 100-branch $or, ${costly.writesPerSecond} writes/s for ${costly.seconds} s: another caller's write to its watch`,
      `p50 ${costly.otherLatencyMs.p50.toFixed(1)} ms, p99 ${costly.otherLatencyMs.p99.toFixed(1)} ms`,
      `${costly.accepted} windows accepted${refusals(costly.refused)}, emulator RSS +${MiB(costly.rssWatchesBytes).toFixed(0)} MiB for them; ${costly.otherDelivered}/${costly.otherWrites} delivered (max ${costly.otherLatencyMs.max.toFixed(1)} ms); the costly user ${costly.told > 0 ? `told live_queries_busy on ${costly.told} watches, first after ${(costly.firstToldAfterS ?? 0).toFixed(1)} s` : 'never told live_queries_busy'}; emulator RSS +${MiB(costly.rssGrowthBytes).toFixed(0)} MiB while writing`,
    ],
    [
      `Live queries: ${correctness.writes} writes on ${correctness.records.toLocaleString('en-US')} records, ${correctness.forcedReconnects} forced reconnects`,
      correctness.correct ? 'all equal to filter()' : 'INCORRECT',
      `${correctness.watches} watches of 50, ${correctness.snapshots} snapshots; mismatched ${correctness.mismatched}, duplicated ${correctness.duplicated}, errors ${correctness.errors}; ${correctness.disconnectsHeard} disconnects heard`,
    ],
    [
      'Live queries: client memory per watch',
      `${(memory.bytesPerWatch / 1024).toFixed(2)} KB`,
      `${memory.watches} distinct watches of ${memory.recordsPerResult} records each, heap after GC`,
    ],
  ];
}
