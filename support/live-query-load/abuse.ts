/**
 * One user who overdoes it (issue 33, benchmark b): a signed-in user with 5,000 records opens
 * 1,000 unfiltered watches with the largest window (limit 10,000) on one socket, as a raw
 * socket.io client would (distinct query ids, four sorts, so that no two need be the same), and
 * writes 10 records a second. Meanwhile another client reads a small entity back to back (`filter`,
 * top 10): how long its reads take (p50, p99, max; the same reads for 3 s before the user starts are
 * the reference), and how much the emulator's memory grows from before the watches to the end. The budget on live rows refuses most of the watches
 * (`live_rows_exceeded`); the figures say how many, and that each refused one was told.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Socket } from 'socket.io-client';

import { loginToken } from '../../emulator/seed/seeded-login';
import { REPOSITORY_ROOT } from '../../emulator/start/cli';
import { createClient } from '../../lib/sdk';
import { latencyFigures, percentile } from '../realtime-load';
import { APP_ID, benchEntity, liveQuerySocket, seedRecords, SERVICE, sleep, waitUntil } from './records';

const RECORDS = 5000;
const WATCHES = 1000;
const WINDOW = 10_000;
const SORTS = ['-created_date', 'rank', '-rank', 'title'];
const ABUSER = 'user@example.com';
export const ABUSE_ENTITIES = [
  benchEntity('AbuseBench', { rank: 'number', title: 'string' }),
  benchEntity('QuietBench', { title: 'string' }),
];

export interface AbuseReport {
  records: number;
  watches: number;
  accepted: number;
  /** Refused with `live_rows_exceeded`, each told on its own room. */
  refused: number;
  /** Watches that got no answer at all (must be 0). */
  unanswered: number;
  writes: number;
  otherReads: number;
  otherReadMs: { p50: number; p99: number; max: number };
  /** The same reads before the user started, in the same run: the reference. */
  referenceReadMs: { p50: number; p99: number };
  rssGrowthBytes: number;
  /** The same user then subscribing to and leaving 10,000-row windows as fast as it can (churner.ts). */
  churn: { seconds: number; subscriptions: number; otherReadMs: { p50: number; p99: number; max: number } };
}

interface Answers {
  subscribed: Set<string>;
  refused: Map<string, string>;
}

async function abuserSocket(url: string, token: string): Promise<{ socket: Socket; answers: Answers }> {
  const socket = await liveQuerySocket(url, token);
  const answers: Answers = { subscribed: new Set(), refused: new Map() };
  socket.on('subscribed', (message: { room: string }) => answers.subscribed.add(message.room));
  socket.on('error', (problem: { room?: string; code?: string }) => {
    if (problem.room) answers.refused.set(problem.room, String(problem.code));
  });
  return { socket, answers };
}

/** Another client's reads, one after the other, until stopped. */
function otherClientReads(url: string) {
  const other = createClient({ serverUrl: url, appId: APP_ID, ...SERVICE }).entity<{ title: string }>('QuietBench');
  const latencies: number[] = [];
  let running = true;
  const done = (async () => {
    await other.create({ title: 'quiet' });
    while (running) {
      const started = performance.now();
      await other.filter({}, '-created_date', 10);
      latencies.push(performance.now() - started);
      await sleep(5);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return latencies;
    },
  };
}

/**
 * The user subscribes to and leaves windows of 10,000 rows as fast as five sockets allow, from a
 * process of its own, while another client reads: each subscription reads 5,000 records and sends
 * them, work that cannot be cut short, so the emulator paces such a caller (live-query-queue.ts).
 */
async function measureChurn(url: string, token: string, seconds: number): Promise<AbuseReport['churn']> {
  const script = path.join(REPOSITORY_ROOT, 'support', 'live-query-load', 'churner.ts');
  const churner = spawn(process.execPath, ['--import', 'tsx', script, url, token], {
    cwd: REPOSITORY_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let subscriptions = 0;
  churner.stdout.on('data', (chunk: Buffer) => {
    const counts = [...chunk.toString().matchAll(/answered (\d+)/g)];
    subscriptions = Number(counts.at(-1)?.[1] ?? subscriptions);
  });
  const exited = new Promise<void>((resolve) => churner.once('exit', () => resolve()));
  try {
    await sleep(1000);
    const reads = otherClientReads(url);
    await sleep(seconds * 1000);
    const latencies = [...(await reads.stop())].sort((left, right) => left - right);
    return { seconds, subscriptions, otherReadMs: latencyFigures(latencies) };
  } finally {
    if (churner.pid !== undefined && churner.exitCode === null) process.kill(-churner.pid, 'SIGTERM');
    await exited;
  }
}

export async function measureAbuse(
  url: string,
  rssBytes: () => number,
  { seconds }: { seconds: number },
): Promise<AbuseReport> {
  const entity = 'AbuseBench';
  const token = await loginToken(url, APP_ID, ABUSER);
  const abuser = createClient({ serverUrl: url, appId: APP_ID, token }).entity<{ rank: number; title: string }>(entity);
  await seedRecords(abuser, RECORDS, (rank) => ({ rank, title: `record ${rank % 97}` }));
  const quiet = otherClientReads(url);
  await sleep(3000);
  const reference = [...(await quiet.stop())].sort((left, right) => left - right);
  const rssBefore = rssBytes();
  const reads = otherClientReads(url);
  const { socket, answers } = await abuserSocket(url, token);
  let latencies: number[] | undefined;
  try {
    const rooms: string[] = [];
    for (let at = 0; at < WATCHES; at += 1) {
      const queryId = `abuse${at}`;
      rooms.push(`entities:${APP_ID}:${entity}:watch:${queryId}`);
      const options = { sort: SORTS[at % SORTS.length], limit: WINDOW };
      socket.emit('subscribe_query', { app_id: APP_ID, entity_name: entity, query_id: queryId, options });
    }
    const writes = seconds * 10;
    for (let write = 0; write < writes; write += 1) {
      await sleep(100);
      await abuser.create({ rank: RECORDS + write, title: `written ${write}` });
    }
    const answered = (room: string) => answers.subscribed.has(room) || answers.refused.has(room);
    await waitUntil(() => rooms.every(answered), 60_000, 'an answer to every watch').catch(() => undefined);
    latencies = [...(await reads.stop())].sort((left, right) => left - right);
    const measured = {
      records: RECORDS,
      watches: WATCHES,
      accepted: answers.subscribed.size,
      refused: [...answers.refused.values()].filter((code) => code === 'live_rows_exceeded').length,
      unanswered: rooms.filter((room) => !answered(room)).length,
      writes,
      otherReads: latencies.length,
      otherReadMs: latencyFigures(latencies),
      referenceReadMs: { p50: percentile(reference, 0.5), p99: percentile(reference, 0.99) },
      rssGrowthBytes: rssBytes() - rssBefore,
    };
    // Its watches go with the socket, and their rows back to its budget, before it churns.
    socket.disconnect();
    await sleep(500);
    return { ...measured, churn: await measureChurn(url, token, seconds) };
  } finally {
    socket.disconnect();
    if (!latencies) await reads.stop();
  }
}
