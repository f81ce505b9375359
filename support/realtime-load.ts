/**
 * Real-time delivery benchmark on loopback: N clients (the SDK, one socket each) subscribe to one
 * entity room while a service-role writer creates, updates and deletes records at a fixed rate.
 * Every client must receive every event, and the events of each record in the order they were written.
 * Latency is measured per delivery from the moment the write was sent to the moment the subscriber's
 * callback ran (same process clock), so it covers HTTP, the store, socket.io and parsing.
 *
 * Writes to one record are sequential (the next starts when the previous answered), so the written
 * order is known; different records are written concurrently.
 *
 * Usage: `npx tsx tools/bench/realtime.ts [--clients 50] [--rate 200] [--seconds 10] [--records 20]`.
 * Exits 1 when any event is missing, unexpected or out of order.
 */
import type { RunningEmulator } from '../emulator/core/types';
import { schemalessDefaultSeed } from '../emulator/seed/seed';
import { loginToken } from '../emulator/seed/seeded-login';
import { startEmulator } from '../emulator/start/server';
import { createClient, type EntityChangeEvent, type PlatformClient, type PlatformError } from '../lib/sdk';

export interface RealtimeBenchOptions {
  /** Subscribed clients, each with its own socket (default 50). */
  clients?: number;
  /** Entity writes per second across all records (default 200). */
  writesPerSecond?: number;
  /** Length of the write phase in ms (default 10,000). */
  durationMs?: number;
  /** Records written round-robin; each is created, updated, then deleted (default 20). */
  records?: number;
  /** Use this emulator instead of starting one in this process. */
  emulatorUrl?: string;
  /** How long to wait for stragglers after the last write (default 10,000 ms). */
  settleTimeoutMs?: number;
}

export interface RealtimeBenchReport {
  clients: number;
  records: number;
  writes: number;
  /** Wall time of the write phase. */
  writeMs: number;
  achievedWritesPerSecond: number;
  expectedDeliveries: number;
  deliveries: number;
  /** Expected (client, event) pairs never received. */
  missing: number;
  /** Received events that match no write, or duplicates. */
  unexpected: number;
  /** (client, record) pairs whose events arrived complete but in another order. */
  outOfOrder: number;
  /** Errors reported to subscribers (malformed updates, refused joins...). */
  subscriberErrors: number;
  failedWrites: number;
  complete: boolean;
  ordered: boolean;
  latencyMs: { p50: number; p99: number; max: number };
}

const APP_ID = 'coming-soon';
const SUBSCRIBER_EMAIL = 'user@example.com';

/** One acknowledged write, in the order it was made for its record. */
export interface WriteOp {
  record: number;
  type: EntityChangeEvent['type'];
  version: number;
  sentAt: number;
}

/** One event as a subscriber received it. */
export interface Delivery {
  id: string;
  type: EntityChangeEvent['type'];
  version: unknown;
  at: number;
}

const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function login(url: string): Promise<string> {
  return loginToken(url, APP_ID, SUBSCRIBER_EMAIL);
}

/** Sockets in a room, through the emulator's test tool. */
async function roomSize(url: string, room: string): Promise<number> {
  const response = await fetch(`${url}/api/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ event: 'bench-probe', payload: null }),
  });
  if (!response.ok) throw new Error(`Probing ${room} failed with ${response.status}`);
  return ((await response.json()) as { delivered: number }).delivered;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!(await check())) {
    if (now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** The type of each write of a record: create first, delete last, updates in between. */
function planRecordOps(count: number): EntityChangeEvent['type'][] {
  return Array.from({ length: count }, (_, index) =>
    index === 0 ? 'create' : index === count - 1 ? 'delete' : 'update',
  );
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] as number;
}

/** The median, 99th percentile and largest of latencies sorted ascending (ms). */
export function latencyFigures(sorted: readonly number[]): { p50: number; p99: number; max: number } {
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
}

export interface DeliveryAnalysis {
  missing: number;
  unexpected: number;
  outOfOrder: number;
  /** Sorted latencies (ms) of deliveries of records that arrived complete and in order. */
  latencies: number[];
}

/**
 * Compares what each client received with what was written. `written[record]` lists the writes of a
 * record in order, `ids[record]` is its id, `deliveries[client]` what that client received.
 */
export function analyseDeliveries(
  written: readonly (readonly WriteOp[])[],
  ids: readonly (string | undefined)[],
  deliveries: readonly (readonly Delivery[])[],
): DeliveryAnalysis {
  // A delete carries the record as it was (or nothing, on other servers): match it by type alone.
  const key = (type: string, version: unknown) => (type === 'delete' ? type : `${type}:${String(version)}`);
  const recordOfId = new Map(ids.map((id, record) => [id, record]));
  const latencies: number[] = [];
  let missing = 0;
  let unexpected = 0;
  let outOfOrder = 0;
  for (const received of deliveries) {
    const byRecord = written.map((): Delivery[] => []);
    for (const delivery of received) {
      const record = recordOfId.get(delivery.id);
      if (record === undefined) unexpected += 1;
      else byRecord[record]?.push(delivery);
    }
    written.forEach((ops, record) => {
      const got = byRecord[record] ?? [];
      const expectedKeys = ops.map((op) => key(op.type, op.version));
      const gotKeys = got.map((delivery) => key(delivery.type, delivery.version));
      const remaining = [...gotKeys];
      let matched = 0;
      for (const expectedKey of expectedKeys) {
        const at = remaining.indexOf(expectedKey);
        if (at !== -1) {
          remaining.splice(at, 1);
          matched += 1;
        }
      }
      missing += expectedKeys.length - matched;
      unexpected += gotKeys.length - matched;
      const inOrder =
        expectedKeys.length === gotKeys.length && expectedKeys.every((value, index) => gotKeys[index] === value);
      if (!inOrder && matched === expectedKeys.length) outOfOrder += 1;
      if (inOrder) ops.forEach((op, index) => latencies.push((got[index] as Delivery).at - op.sentAt));
    });
  }
  latencies.sort((left, right) => left - right);
  return { missing, unexpected, outOfOrder, latencies };
}

/** Runs the benchmark and returns its figures (for `npm run bench` and the Jest correctness test). */
export async function runRealtimeBench(options: RealtimeBenchOptions = {}): Promise<RealtimeBenchReport> {
  const clientCount = options.clients ?? 50;
  const rate = options.writesPerSecond ?? 200;
  const durationMs = options.durationMs ?? 10_000;
  const totalWrites = Math.max(1, Math.round((rate * durationMs) / 1000));
  // Every record needs at least a create and a delete.
  const recordCount = Math.max(1, Math.min(options.records ?? 20, Math.floor(totalWrites / 2)));
  const entity = `BenchRealtime${Date.now().toString(36)}`;
  const room = `entities:${APP_ID}:${entity}`;

  let emulator: RunningEmulator | undefined;
  const clients: PlatformClient[] = [];
  try {
    // Its own emulator takes the load tool's made-up entity name (schemaless apps); an emulator
    // given by URL must allow it too (a schemaless seed or a project defining it).
    if (!options.emulatorUrl) emulator = await startEmulator({ port: 0, quiet: true, seed: schemalessDefaultSeed() });
    const url = options.emulatorUrl ?? (emulator as RunningEmulator).url;
    const token = await login(url);

    const deliveries: Delivery[][] = [];
    let subscriberErrors = 0;
    for (let index = 0; index < clientCount; index += 1) {
      const client = createClient({ serverUrl: url, appId: APP_ID, token });
      clients.push(client);
      const received: Delivery[] = [];
      deliveries.push(received);
      const onEvent = (event: EntityChangeEvent<{ v?: unknown }>) =>
        received.push({ id: event.id, type: event.type, version: event.data?.v, at: now() });
      const onError = (_error: PlatformError) => {
        subscriberErrors += 1;
      };
      client.entity<{ v?: unknown }>(entity).subscribe(onEvent, { onError });
    }
    await waitFor(async () => (await roomSize(url, room)) >= clientCount, 30_000, `${clientCount} sockets in ${room}`);

    const writer = createClient({
      serverUrl: url,
      appId: APP_ID,
      token: null,
      serviceToken: `service-token-${APP_ID}`,
    });
    const handler = writer.asServiceRole.entity<{ key: number; v: number }>(entity);
    const opsPerRecord = Array.from({ length: recordCount }, (_, record) =>
      planRecordOps(Math.floor(totalWrites / recordCount) + (record < totalWrites % recordCount ? 1 : 0)),
    );
    const written: WriteOp[][] = opsPerRecord.map(() => []);
    const ids: (string | undefined)[] = [];
    const chains: Promise<void>[] = opsPerRecord.map(() => Promise.resolve());
    let failedWrites = 0;

    async function write(record: number, version: number): Promise<void> {
      const type = opsPerRecord[record]?.[version] ?? 'update';
      const op: WriteOp = { record, type, version, sentAt: now() };
      try {
        if (type === 'create') ids[record] = (await handler.create({ key: record, v: version })).id;
        else if (type === 'update') await handler.update(ids[record] as string, { v: version });
        else await handler.delete(ids[record] as string);
        written[record]?.push(op);
      } catch {
        failedWrites += 1;
      }
    }

    const interval = 1000 / rate;
    const started = now();
    for (let index = 0; index < totalWrites; index += 1) {
      await sleep(started + index * interval - now());
      const record = index % recordCount;
      const version = Math.floor(index / recordCount);
      chains[record] = (chains[record] as Promise<void>).then(() => write(record, version));
    }
    await Promise.all(chains);
    const writeMs = now() - started;

    const expectedPerClient = written.reduce((sum, ops) => sum + ops.length, 0);
    const settle = options.settleTimeoutMs ?? 10_000;
    await waitFor(
      () => deliveries.every((received) => received.length >= expectedPerClient),
      settle,
      'every delivery',
    ).catch(() => undefined);

    const { missing, unexpected, outOfOrder, latencies } = analyseDeliveries(written, ids, deliveries);
    const deliveriesCount = deliveries.reduce((sum, received) => sum + received.length, 0);
    return {
      clients: clientCount,
      records: recordCount,
      writes: expectedPerClient,
      writeMs,
      achievedWritesPerSecond: (expectedPerClient / writeMs) * 1000,
      expectedDeliveries: expectedPerClient * clientCount,
      deliveries: deliveriesCount,
      missing,
      unexpected,
      outOfOrder,
      subscriberErrors,
      failedWrites,
      complete: missing === 0 && unexpected === 0 && failedWrites === 0,
      ordered: outOfOrder === 0,
      latencyMs: latencyFigures(latencies),
    };
  } finally {
    for (const client of clients) client.cleanup();
    await emulator?.close();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The report as a printable table. */
export function formatRealtimeBenchReport(report: RealtimeBenchReport): string {
  const rows: [string, string][] = [
    ['metric', 'value'],
    ['subscribed clients (one socket each)', String(report.clients)],
    ['records (create, updates, delete)', String(report.records)],
    [
      'writes',
      `${report.writes} in ${(report.writeMs / 1000).toFixed(1)} s (${report.achievedWritesPerSecond.toFixed(1)}/s)`,
    ],
    ['failed writes', String(report.failedWrites)],
    ['deliveries received / expected', `${report.deliveries} / ${report.expectedDeliveries}`],
    ['missing / unexpected', `${report.missing} / ${report.unexpected}`],
    ['records out of order (per client)', String(report.outOfOrder)],
    ['errors reported to subscribers', String(report.subscriberErrors)],
    ['latency p50 (write sent -> callback)', ms(report.latencyMs.p50)],
    ['latency p99', ms(report.latencyMs.p99)],
    ['latency max', ms(report.latencyMs.max)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
  lines.splice(1, 0, `${'-'.repeat(width)}  ${'-'.repeat(24)}`);
  const verdict = report.complete && report.ordered ? 'every client got every event, in order per record' : 'FAILED';
  lines.push('', `verdict: ${verdict}`);
  return lines.join('\n');
}
