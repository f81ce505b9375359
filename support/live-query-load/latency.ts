/**
 * Write-to-callback latency at a real app's size (issue 33, benchmark a): 20,000 records and 1,000
 * watches, 50 sockets each watching the same 20 distinct queries (an equality or `$in` filter,
 * sorted by one field or another, windows of 50) while 100 writes a second run. Every fifth write
 * creates the newest record of one bucket, which enters that bucket's window: 50 deliveries, each
 * timed from the moment the write was sent to the callback that first shows the record (same
 * process clock: HTTP, the server's work, the socket and the client's edit). The other writes
 * update or delete random records; those in a window leave it, and the window reads its next row.
 * The emulator's CPU per write covers everything it did while the writes ran and were delivered;
 * the same writes on the same data with nobody watching, first, are the reference. Both phases run
 * in turns with the machine's floor (`between`: the bare server's share of the same requests just
 * before each turn), so the ratio compares figures measured under the same load of the machine. In
 * the watched phase the floor's turn also writes as many frames per request as the watches heard
 * per warm-up write (http-floor.ts, the I/O floor).
 */
import { createClient, type PlatformClient, type WatchOptions } from '../../lib/sdk';
import { latencyFigures } from '../realtime-load';
import type { FrameSchedule } from './http-floor';
import { APP_ID, benchEntity, randomFrom, seedRecords, SERVICE, sleep, waitUntil } from './records';

const RECORDS = 20_000;
export const LATENCY_SOCKETS = 50;
const BUCKETS = 10;
/** Every fifth write is a create (the first of each five); of the others, the last is a delete. */
const CREATE_EVERY = 5;
const WINDOW = 50;
export const LATENCY_WATCHES = LATENCY_SOCKETS * BUCKETS * 2;

const ITEM_FIELDS = { bucket: 'number', rank: 'number', score: 'number', stamp: 'number' };
export const LATENCY_ENTITIES = [benchEntity('UnwatchedBench', ITEM_FIELDS), benchEntity('LatencyBench', ITEM_FIELDS)];

/**
 * Writes before each measured phase: the figures are a running server's, not those of its first
 * seconds. An on-CPU profile of the measured writes without them showed about a sixth of the
 * emulator's CPU in V8's optimising compiler, each hot function compiled once while the phase ran
 * (docs/PERFORMANCE.md). 1,000 were not enough: after them the compiler still took a fifth of the
 * unwatched phase's first two turns, the first turn cost 1.5 to 2.1 times the third, and the reference
 * measured 0.64 ms a write where three times the warm-up left 0.35 to 0.40 ms with turns level
 * (2026-11-30). The warm-up's own CPU per write is printed beside the measured one.
 */
const MAX_WARM_UP_WRITES = 3000;
export const warmUpWrites = (writes: number) => Math.min(MAX_WARM_UP_WRITES, 3 * writes);
/** Stamps of measured creates start here, above any warm-up create's (the first of every five writes). */
const WARM_UP_STAMPS = Math.ceil(MAX_WARM_UP_WRITES / CREATE_EVERY);

interface Item {
  bucket: number;
  rank: number;
  score: number;
  stamp: number;
}

export interface LatencyReport {
  records: number;
  watches: number;
  sockets: number;
  distinctQueries: number;
  writes: number;
  writesPerSecond: number;
  expectedDeliveries: number;
  /** Watches refused or ended, by code (none on a machine that keeps up). */
  refusedWatches: Record<string, number>;
  deliveries: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** CPU the emulator spent per write while the writes ran and were delivered (HTTP, store, live queries). */
  serverCpuMsPerWrite: number;
  /** The same writes on the same data with nobody watching, in the same run: the write's own cost. */
  referenceCpuMsPerWrite: number;
  /**
   * The emulator's CPU per write during the warm-up writes before the measured ones (same mix, same
   * pace, same watches): V8 optimises the write and delivery paths while they run.
   */
  warmUpCpuMsPerWrite: number;
  warmUpWrites: number;
  /**
   * `update_model` deliveries the watches heard per measured write (creates', timed, and those of
   * updates and deletes that moved a window); the I/O floor writes as many per request as they
   * heard per warm-up write.
   */
  updatesPerWrite: number;
  /** CPU this process (the 50 clients) spent per delivery meanwhile. */
  clientCpuMsPerDelivery: number;
}

/** Ten buckets by rank, newest first; ten pairs of buckets by the lowest score. */
function queries(): WatchOptions<Item>[] {
  const byRank = Array.from({ length: BUCKETS }, (_, bucket) => ({
    filter: { bucket },
    sort: '-rank' as const,
    limit: WINDOW,
  }));
  const byScore = Array.from({ length: BUCKETS }, (_, bucket) => ({
    filter: { bucket: { $in: [bucket, (bucket + 1) % BUCKETS] } },
    sort: 'score' as const,
    limit: WINDOW,
  }));
  return [...byRank, ...byScore];
}

interface Watching {
  /** Watches that were refused or ended (each told through onError), by code. */
  refused: Map<string, number>;
  /** Live watches of each bucket's window: the deliveries one create of that bucket makes. */
  watchersOfBucket: number[];
  /** Results heard after each watch's first: one per `update_model` delivered. */
  updates: number;
}

/**
 * Watches every query on every client; answers once each has its first result or was refused (a
 * refusal is reported, not waited for: a machine too busy to read 20,000 records within a query's
 * time budget refuses with `query_time_budget_exceeded`, as `filter()` would). Each client watches
 * one query first: until a server has answered one, the client also reads each new query over HTTP
 * (docs/LIVE-QUERIES.md "Which kind of server"), a cost of the first seconds not measured here.
 */
async function watchAll(
  clients: PlatformClient[],
  entity: string,
  onStamp: (stamp: number) => void,
): Promise<Watching> {
  const watching: Watching = {
    refused: new Map(),
    watchersOfBucket: new Array<number>(BUCKETS).fill(0),
    updates: 0,
  };
  let answered = 0;
  const watchOne = (client: PlatformClient, options: WatchOptions<Item>, bucket: number | undefined) => {
    // Stamps this watch has shown (creates can complete out of order: not only the newest counts).
    const seen = new Set<number>();
    let state: 'waiting' | 'live' | 'refused' = 'waiting';
    const onResult = ({ entities }: { entities: Item[] }) => {
      if (state === 'waiting') {
        answered += 1;
        if (bucket !== undefined) watching.watchersOfBucket[bucket] = (watching.watchersOfBucket[bucket] ?? 0) + 1;
      } else watching.updates += 1;
      state = 'live';
      for (const { stamp } of entities) {
        if (stamp < 0 || seen.has(stamp)) continue;
        seen.add(stamp);
        onStamp(stamp);
      }
    };
    const onError = (error: { code?: string }) => {
      if (state === 'waiting') answered += 1;
      if (state === 'live' && bucket !== undefined)
        watching.watchersOfBucket[bucket] = (watching.watchersOfBucket[bucket] ?? 1) - 1;
      state = 'refused';
      const code = error.code ?? 'unknown';
      watching.refused.set(code, (watching.refused.get(code) ?? 0) + 1);
    };
    client.entity<Item>(entity).watch(options, onResult, { onError });
  };
  const all = queries();
  const bucketOf = (at: number) => (at < BUCKETS ? at : undefined);
  for (const client of clients) watchOne(client, all[0] as WatchOptions<Item>, bucketOf(0));
  await waitUntil(() => answered === clients.length, 300_000, 'the first watch of every client');
  for (const client of clients) all.forEach((options, at) => at > 0 && watchOne(client, options, bucketOf(at)));
  await waitUntil(() => answered === LATENCY_WATCHES, 300_000, 'an answer to every watch');
  return watching;
}

/** A seeded entity of the benchmark: 20,000 records in ten buckets, their stamps negative (never timed). */
async function seeded(url: string, clients: PlatformClient[], entity: string) {
  const writer = createClient({ serverUrl: url, appId: APP_ID, ...SERVICE });
  clients.push(writer);
  const random = randomFrom(7);
  const items = writer.entity<Item>(entity);
  const ids = await seedRecords(items, RECORDS, (at) => ({
    bucket: at % BUCKETS,
    rank: random(1_000_000),
    score: random(1_000_000) / 1_000_000,
    stamp: -1 - at,
  }));
  return { entity, items, ids, random };
}

interface WritePhase {
  creates: number;
  /** The stamp of the phase's first create (the others follow it). */
  firstStamp: number;
  /** Writes a second achieved. */
  rate: number;
}

/**
 * The writes: at `writesPerSecond`, every fifth a create at the top of its bucket (its send time
 * kept by stamp), the others updates and deletes of random seeded records.
 */
async function runWrites(
  { items, ids, random }: Awaited<ReturnType<typeof seeded>>,
  { writes, writesPerSecond }: { writes: number; writesPerSecond: number },
  sentAt: Map<number, number>,
  firstStamp = 0,
): Promise<WritePhase> {
  const started = performance.now();
  const pending: Promise<unknown>[] = [];
  // A record deleted meanwhile answers 404: that write simply did not happen.
  const ignoreMissing = () => undefined;
  let creates = 0;
  for (let write = 0; write < writes; write += 1) {
    await sleep(started + (write * 1000) / writesPerSecond - performance.now());
    if (write % CREATE_EVERY === 0) {
      const stamp = firstStamp + creates;
      creates += 1;
      sentAt.set(stamp, performance.now());
      // Not added to the records others write: an update would bring it into view again, untimed.
      pending.push(items.create({ bucket: stamp % BUCKETS, rank: 1_000_000 + stamp, score: 0.999, stamp }));
    } else if (write % CREATE_EVERY < CREATE_EVERY - 1) {
      const change = { bucket: random(BUCKETS), rank: random(1_000_000), score: random(1_000_000) / 1_000_000 };
      pending.push(items.update(ids[random(ids.length)] as string, change).catch(ignoreMissing));
    } else {
      pending.push(items.delete(ids.splice(random(ids.length), 1)[0] as string).catch(ignoreMissing));
    }
  }
  const rate = (writes * 1000) / (performance.now() - started);
  await Promise.all(pending);
  return { creates, firstStamp, rate };
}

/** Something measured in turns with the emulator's writes (the machine's floor): runs before each turn. */
export type BetweenTurns = (writes: number) => Promise<void>;

/** The floor's turn before each of the emulator's: its requests, and any frames to write with them. */
export type FloorTurn = (writes: number, frames?: FrameSchedule) => Promise<void>;

/** Time for the deliveries of the warm-up's last writes to arrive before they are counted. */
const DELIVERIES_SETTLE_MS = 500;

/** How many turns a measured phase's writes are split into, each after a turn of the floor. */
export const MEASURED_TURNS = 4;

/**
 * A measured phase in turns: before each, `between` runs (the floor's turn, while the emulator
 * rests), then `turn` sends its share of the writes and returns once their work is done. Answers the
 * emulator's CPU over its own turns.
 */
export async function inTurns(
  writes: number,
  between: BetweenTurns,
  serverCpuMs: () => number,
  turn: (writes: number) => Promise<void>,
): Promise<number> {
  let cpu = 0;
  for (let at = 0; at < MEASURED_TURNS; at += 1) {
    const share = Math.floor(writes / MEASURED_TURNS) + (at < writes % MEASURED_TURNS ? 1 : 0);
    await between(share);
    const before = serverCpuMs();
    await turn(share);
    cpu += serverCpuMs() - before;
  }
  return cpu;
}

export async function measureLatency(
  url: string,
  options: { writes: number; writesPerSecond: number },
  serverCpuMs: () => number,
  floorTurn: FloorTurn,
): Promise<LatencyReport> {
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const clients: PlatformClient[] = [];
  try {
    const warmUp = { ...options, writes: warmUpWrites(options.writes) };
    // The reference: the same writes on the same data with nobody watching, once warm.
    const unwatched = await seeded(url, clients, 'UnwatchedBench');
    await runWrites(unwatched, warmUp, new Map());
    let referenceStamp = WARM_UP_STAMPS;
    const referenceCpu = await inTurns(
      options.writes,
      (writes) => floorTurn(writes),
      serverCpuMs,
      async (writes) => {
        const phase = await runWrites(unwatched, { ...options, writes }, new Map(), referenceStamp);
        referenceStamp += phase.creates;
      },
    );

    const watched = await seeded(url, clients, 'LatencyBench');
    const watchers = Array.from({ length: LATENCY_SOCKETS }, () =>
      createClient({ serverUrl: url, appId: APP_ID, ...SERVICE }),
    );
    clients.push(...watchers);
    const watching = await watchAll(watchers, watched.entity, (stamp) => {
      const sent = sentAt.get(stamp);
      if (sent !== undefined) latencies.push(performance.now() - sent);
    });
    // Warm-up writes first, timed by nobody (their stamps are not in `sentAt`), their CPU reported apart.
    const warmUpBefore = serverCpuMs();
    const updatesBefore = watching.updates;
    await runWrites(watched, warmUp, new Map());
    const warmUpCpu = serverCpuMs() - warmUpBefore;
    await sleep(DELIVERIES_SETTLE_MS);
    const framesPerWrite = (watching.updates - updatesBefore) / warmUp.writes;
    const measuredUpdatesBefore = watching.updates;
    let creates = 0;
    let expected = 0;
    let clientCpuMs = 0;
    const rates: number[] = [];
    // As the writes bring them: each create reaches every watcher of its bucket's window at once.
    const watchersPerBucket = watching.watchersOfBucket.reduce((total, watchers) => total + watchers, 0) / BUCKETS;
    const frames: FrameSchedule = {
      perRequest: framesPerWrite,
      burst: { every: CREATE_EVERY, frames: Math.round(watchersPerBucket) },
    };
    const between = (writes: number) => floorTurn(writes, frames);
    const serverCpu = await inTurns(options.writes, between, serverCpuMs, async (writes) => {
      const clientCpuBefore = process.cpuUsage();
      const phase = await runWrites(watched, { ...options, writes }, sentAt, WARM_UP_STAMPS + creates);
      creates += phase.creates;
      rates.push(phase.rate);
      expected += Array.from(
        { length: phase.creates },
        (_, at) => watching.watchersOfBucket[(phase.firstStamp + at) % BUCKETS] ?? 0,
      ).reduce((total, watchers) => total + watchers, 0);
      // The turn ends when its deliveries are in: their work is the turn's, not the floor's next turn.
      await waitUntil(() => latencies.length >= expected, 60_000, 'every delivery').catch(() => undefined);
      const clientCpu = process.cpuUsage(clientCpuBefore);
      clientCpuMs += (clientCpu.user + clientCpu.system) / 1000;
    });
    const sorted = [...latencies].sort((left, right) => left - right);
    return {
      records: RECORDS,
      watches: LATENCY_WATCHES,
      sockets: LATENCY_SOCKETS,
      distinctQueries: queries().length,
      writes: options.writes,
      writesPerSecond: rates.reduce((total, rate) => total + rate, 0) / Math.max(1, rates.length),
      expectedDeliveries: expected,
      refusedWatches: Object.fromEntries(watching.refused),
      deliveries: latencies.length,
      latencyMs: latencyFigures(sorted),
      serverCpuMsPerWrite: serverCpu / options.writes,
      referenceCpuMsPerWrite: referenceCpu / options.writes,
      warmUpCpuMsPerWrite: warmUpCpu / warmUp.writes,
      warmUpWrites: warmUp.writes,
      updatesPerWrite: (watching.updates - measuredUpdatesBefore) / options.writes,
      clientCpuMsPerDelivery: clientCpuMs / Math.max(1, latencies.length),
    };
  } finally {
    for (const client of clients) client.cleanup();
  }
}
