/**
 * Write-to-callback latency with many live queries: 1,000 distinct watches on 10 clients (10
 * sockets), each on one of 100 buckets with its own window size, sorted newest rank first. Every
 * write creates the highest rank of its bucket, so it enters the windows of that bucket's 10
 * watches: 10 expected deliveries per write. Latency runs from the moment the write was sent to the
 * callback that first shows the record (same process clock): HTTP, the server's evaluation, the
 * socket and the client's edit.
 */
import { createClient, type PlatformClient } from '../../lib/sdk';
import { percentile } from '../realtime-load';

export const LATENCY_WATCHES = 1000;
const SOCKETS = 10;
const BUCKETS = 100;
const APP_ID = 'coming-soon';
const SERVICE = { token: `service-token-${APP_ID}` };

interface Stamped {
  stamp: number;
  bucket: number;
  rank: number;
}

export interface LatencyReport {
  watches: number;
  sockets: number;
  writes: number;
  expectedDeliveries: number;
  deliveries: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** CPU the emulator spent per write during the write phase (HTTP, store, every query's check, edits). */
  serverCpuMsPerWrite: number;
  /** CPU this process (the 10 clients) spent per delivery during the write phase. */
  clientCpuMsPerDelivery: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

export async function measureLatency(
  url: string,
  { writes, writesPerSecond }: { writes: number; writesPerSecond: number },
  serverCpuMs: () => number,
): Promise<LatencyReport> {
  const entity = `LatencyBench${Date.now()}`;
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let firstResults = 0;
  const clients: PlatformClient[] = [];
  try {
    for (let socket = 0; socket < SOCKETS; socket += 1) {
      const client = createClient({ serverUrl: url, appId: APP_ID, ...SERVICE });
      clients.push(client);
      for (let at = socket; at < LATENCY_WATCHES; at += SOCKETS) {
        let newest = -1;
        let first = true;
        const options = {
          filter: { bucket: at % BUCKETS },
          sort: '-rank' as const,
          limit: 5 + Math.floor(at / BUCKETS),
        };
        client.entity<Stamped>(entity).watch(options, ({ entities }) => {
          if (first) firstResults += 1;
          first = false;
          const arrived = performance.now();
          for (const { stamp } of entities) {
            const sent = stamp > newest ? sentAt.get(stamp) : undefined;
            if (sent !== undefined) latencies.push(arrived - sent);
          }
          newest = Math.max(newest, ...entities.map(({ stamp }) => stamp));
        });
      }
    }
    await waitUntil(() => firstResults === LATENCY_WATCHES, 30_000, 'the first result of every watch');
    const writerClient = createClient({ serverUrl: url, appId: APP_ID, ...SERVICE });
    clients.push(writerClient);
    const writer = writerClient.entity<Stamped>(entity);
    const started = performance.now();
    const serverCpuBefore = serverCpuMs();
    const clientCpuBefore = process.cpuUsage();
    const pending: Promise<unknown>[] = [];
    for (let stamp = 0; stamp < writes; stamp += 1) {
      await sleep(started + (stamp * 1000) / writesPerSecond - performance.now());
      sentAt.set(stamp, performance.now());
      pending.push(writer.create({ stamp, bucket: stamp % BUCKETS, rank: stamp }));
    }
    await Promise.all(pending);
    const expected = writes * (LATENCY_WATCHES / BUCKETS);
    await waitUntil(() => latencies.length >= expected, 30_000, 'every delivery').catch(() => undefined);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const serverCpu = serverCpuMs() - serverCpuBefore;
    const sorted = [...latencies].sort((left, right) => left - right);
    return {
      watches: LATENCY_WATCHES,
      sockets: SOCKETS,
      writes,
      expectedDeliveries: expected,
      deliveries: latencies.length,
      latencyMs: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN },
      serverCpuMsPerWrite: serverCpu / writes,
      clientCpuMsPerDelivery: (clientCpu.user + clientCpu.system) / 1000 / Math.max(1, latencies.length),
    };
  } finally {
    for (const client of clients) client.cleanup();
  }
}
