/**
 * One user whose windows cost the most to keep and check (`npm run bench`): a signed-in user asks
 * for windows of 50 rows, ten at a time on two sockets, until one is refused or it holds 2,000 (what
 * its live-row budget allows of windows without a filter), each filtered by a `$or` of 100
 * branches that no index narrows, so every write to the entity is checked against all it holds;
 * then it writes 60 records a second. How many windows it got (a window counts its filter's size, docs/LIVE-QUERIES.md "Limits") and what they cost the
 * emulator's memory; meanwhile another caller watches a small entity and writes to it four times a
 * second: how long each of its writes takes to reach its own watch (the other caller must not wait
 * for the first one's checks), and whether the first user is told `live_queries_busy`.
 */
import type { Socket } from 'socket.io-client';

import { loginToken } from '../../emulator/seed/seeded-login';
import { createClient } from '../../lib/sdk';
import { latencyFigures } from '../realtime-load';
import { APP_ID, benchEntity, liveQuerySocket, seedRecords, SERVICE, sleep, waitUntil } from './records';

const RECORDS = 1000;
const SOCKETS = 2;
const WATCHES_PER_SOCKET = 1000;
const BRANCHES = 100;
const WRITES_PER_SECOND = 60;
const ASKED_AT_ONCE = 10;
// Not the abuse case's user: each has a live-row budget of its own.
const USER = 'member@example.com';
export const COSTLY_ENTITIES = [
  benchEntity('CostlyBench', { rank: 'number', title: 'string' }),
  benchEntity('BystanderBench', { stamp: 'number' }),
];

export interface CostlyReport {
  /** Windows the user may ask for, those it got, and those refused (by code; it stops asking at the first). */
  watches: number;
  accepted: number;
  refused: Record<string, number>;
  /** What opening them grew the emulator's RSS by. */
  rssWatchesBytes: number;
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

interface CostlyWatches {
  sockets: Socket[];
  accepted: number;
  refused: Map<string, number>;
}

async function openCostlyWatches(url: string, token: string, onBusy: () => void): Promise<CostlyWatches> {
  const watches: CostlyWatches = { sockets: [], accepted: 0, refused: new Map() };
  const { sockets, refused } = watches;
  let answered = 0;
  for (let socketAt = 0; socketAt < SOCKETS; socketAt += 1) {
    const socket = await liveQuerySocket(url, token);
    socket.on('subscribed', () => {
      answered += 1;
      watches.accepted += 1;
    });
    socket.on('error', (problem: { code?: string }) => {
      if (problem.code === 'live_queries_busy') return onBusy();
      answered += 1;
      const code = problem.code ?? 'unknown';
      refused.set(code, (refused.get(code) ?? 0) + 1);
    });
    sockets.push(socket);
    // A few at a time, and no more once one is refused: each refused request still compiles its
    // filter, garbage the RSS figure would count.
    for (let at = 0; at < WATCHES_PER_SOCKET && refused.size === 0; at += ASKED_AT_ONCE) {
      for (let next = at; next < at + ASKED_AT_ONCE; next += 1) {
        const options = { filter: costlyFilter(socketAt * WATCHES_PER_SOCKET + next), sort: 'rank', limit: 50 };
        socket.emit('subscribe_query', {
          app_id: APP_ID,
          entity_name: 'CostlyBench',
          query_id: `c${socketAt}-${next}`,
          options,
        });
      }
      const asked = socketAt * WATCHES_PER_SOCKET + at + ASKED_AT_ONCE;
      await waitUntil(() => answered >= asked, 300_000, 'an answer to every costly watch');
    }
  }
  return watches;
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
  const rssBeforeWatches = rssBytes();
  const { sockets, accepted, refused } = await openCostlyWatches(url, token, () => toldAt.push(performance.now()));
  const rssWatchesBytes = rssBytes() - rssBeforeWatches;
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
      accepted,
      refused: Object.fromEntries(refused),
      rssWatchesBytes,
      writesPerSecond: WRITES_PER_SECOND,
      seconds,
      otherDelivered: latencies.length,
      otherWrites,
      otherLatencyMs: latencyFigures(sorted),
      told: toldAt.length,
      firstToldAfterS: toldAt.length > 0 ? ((toldAt[0] as number) - started) / 1000 : null,
      rssGrowthBytes: rssBytes() - rssBefore,
    };
  } finally {
    other.cleanup();
    for (const socket of sockets) socket.disconnect();
  }
}
