/**
 * One user whose windows cost more to check than its writes leave time for (`npm run bench`): a
 * signed-in user opens the most windows its live-row budget allows (2,000 of 50 rows on two
 * sockets), each filtered by a `$or` of 100 branches that no index narrows, so every write to the
 * entity is checked against all of them; then it writes 60 records a second. Meanwhile another
 * caller watches a small entity and writes to it four times a second: how long each of its writes
 * takes to reach its own watch (the other caller must not wait for the first one's checks), and
 * when the first user is told `live_queries_busy` (docs/LIVE-QUERIES.md "Limits").
 */
import type { Socket } from 'socket.io-client';

import { loginToken } from '../../emulator/seed/seeded-login';
import { createClient } from '../../lib/sdk';
import { percentile } from '../realtime-load';
import { APP_ID, benchEntity, liveQuerySocket, seedRecords, SERVICE, sleep, waitUntil } from './records';

const RECORDS = 1000;
const SOCKETS = 2;
const WATCHES_PER_SOCKET = 1000;
const BRANCHES = 100;
const WRITES_PER_SECOND = 60;
// Not the abuse case's user: each has a live-row budget of its own.
const USER = 'member@example.com';
export const COSTLY_ENTITIES = [
  benchEntity('CostlyBench', { rank: 'number', title: 'string' }),
  benchEntity('BystanderBench', { stamp: 'number' }),
];

export interface CostlyReport {
  watches: number;
  writesPerSecond: number;
  seconds: number;
  /** The other caller's writes that reached its watch, and how long each took. */
  otherDelivered: number;
  otherWrites: number;
  otherLatencyMs: { p50: number; p99: number; max: number };
  /** Watches of the costly user ended with `live_queries_busy`, and when the first was (s after the writes began). */
  told: number;
  firstToldAfterS: number | null;
  rssGrowthBytes: number;
}

/** A filter no index narrows, costly to check: 100 branches of two conditions each. */
function costlyFilter(at: number) {
  return {
    $or: Array.from({ length: BRANCHES }, (_, i) => ({ rank: { $gt: 1_000_000 + i + at }, title: { $ne: `s${i}` } })),
  };
}

async function openCostlyWatches(url: string, token: string, onBusy: () => void): Promise<Socket[]> {
  const sockets: Socket[] = [];
  let answered = 0;
  for (let socketAt = 0; socketAt < SOCKETS; socketAt += 1) {
    const socket = await liveQuerySocket(url, token);
    socket.on('subscribed', () => (answered += 1));
    socket.on('error', (problem: { code?: string }) => {
      if (problem.code === 'live_queries_busy') onBusy();
      else answered += 1;
    });
    sockets.push(socket);
    for (let at = 0; at < WATCHES_PER_SOCKET; at += 1) {
      const options = { filter: costlyFilter(socketAt * WATCHES_PER_SOCKET + at), sort: 'rank', limit: 50 };
      socket.emit('subscribe_query', {
        app_id: APP_ID,
        entity_name: 'CostlyBench',
        query_id: `c${socketAt}-${at}`,
        options,
      });
    }
    await waitUntil(() => answered >= (socketAt + 1) * WATCHES_PER_SOCKET, 300_000, 'an answer to every costly watch');
  }
  return sockets;
}

export async function measureCostly(
  url: string,
  rssBytes: () => number,
  { seconds }: { seconds: number },
): Promise<CostlyReport> {
  const token = await loginToken(url, APP_ID, USER);
  const costly = createClient({ serverUrl: url, appId: APP_ID, token }).entity<{ rank: number; title: string }>(
    'CostlyBench',
  );
  await seedRecords(costly, RECORDS, (rank) => ({ rank, title: `record ${rank % 97}` }));
  const toldAt: number[] = [];
  const sockets = await openCostlyWatches(url, token, () => toldAt.push(performance.now()));
  const other = createClient({ serverUrl: url, appId: APP_ID, ...SERVICE });
  try {
    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    let watching = false;
    other.entity<{ stamp: number }>('BystanderBench').watch({ sort: '-stamp', limit: 10 }, ({ entities }) => {
      watching = true;
      for (const { stamp } of entities) {
        const sent = sentAt.get(stamp);
        if (sent === undefined) continue;
        latencies.push(performance.now() - sent);
        sentAt.delete(stamp);
      }
    });
    await waitUntil(() => watching, 10_000, "the other caller's watch");
    const rssBefore = rssBytes();
    const started = performance.now();
    let writing = true;
    const writes = (async () => {
      for (let write = 0; writing; write += 1) {
        await sleep(started + (write * 1000) / WRITES_PER_SECOND - performance.now());
        // Not awaited: the user writes at its pace, whatever the answers; a failed write is no figure here.
        void costly.create({ rank: RECORDS + write, title: `written ${write}` }).catch(() => undefined);
      }
    })();
    const otherWrites = seconds * 4;
    for (let stamp = 0; stamp < otherWrites; stamp += 1) {
      await sleep(started + stamp * 250 - performance.now());
      sentAt.set(stamp, performance.now());
      await other.entity<{ stamp: number }>('BystanderBench').create({ stamp });
    }
    writing = false;
    await writes;
    await waitUntil(() => sentAt.size === 0, 5000, "the other caller's last deliveries").catch(() => undefined);
    const sorted = [...latencies].sort((left, right) => left - right);
    return {
      watches: SOCKETS * WATCHES_PER_SOCKET,
      writesPerSecond: WRITES_PER_SECOND,
      seconds,
      otherDelivered: latencies.length,
      otherWrites,
      otherLatencyMs: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN },
      told: toldAt.length,
      firstToldAfterS: toldAt.length > 0 ? ((toldAt[0] as number) - started) / 1000 : null,
      rssGrowthBytes: rssBytes() - rssBefore,
    };
  } finally {
    other.cleanup();
    for (const socket of sockets) socket.disconnect();
  }
}
