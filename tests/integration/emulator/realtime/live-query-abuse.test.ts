import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { MAX_LIVE_ROWS_PER_CALLER } from '@/emulator/realtime/live-query-budget';
import { loginToken, SEEDED_ACCOUNTS, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';
import { connect, eventually, watch, type Row, type Watched } from './live-query-socket';

/**
 * One signed-in user who overdoes it (docs/LIVE-QUERIES.md "Limits"): hundreds of unfiltered
 * watches with the largest window on a few thousand records, while writing. Another client's
 * requests must still be answered promptly, and the user must be told which watches were refused.
 * The bound here is far above the benchmark's goal (`npm run bench`: p99 ≤ 50 ms at 5,000 records
 * and 1,000 watches); before live-query work was bounded, this took the emulator away for seconds.
 */

const APP = 'coming-soon';
const ENTITY = 'Flooded';
const RECORDS = 2000;
const SUBSCRIPTIONS = 400;
const WRITES = 20;
const WINDOW = 10_000;
/**
 * Far above the goal, for a machine shared with other work: `npm test` runs Jest beside the browser
 * suites, and at a load of 20 on two cores one read here waited 2.3 s. Before live-query work was
 * bounded, this case took the emulator away for tens of seconds.
 */
const BOUND_MS = 5000;
const SORTS = ['-created_date', 'rank', '-rank', 'title'];

let emulator: RunningEmulator;
let api: ApiCall;
let abuser: string;
let other: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  emulator = await startTestEmulator();
  api = apiClient(emulator);
  abuser = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  other = await loginToken(emulator, APP, SEEDED_ACCOUNTS.member.email);
  const records = Array.from({ length: RECORDS }, (_, rank) => ({ rank, title: `record ${rank % 97}` }));
  const created = await api('POST', `/apps/${APP}/entities/${ENTITY}/bulk`, { token: abuser, json: records });
  expect(created.status).toBe(201);
  expect((await api('POST', `/apps/${APP}/entities/Quiet`, { token: other, json: { title: 'q' } })).status).toBe(201);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await emulator.close();
});

/** Another client's reads, one after the other, until stopped: how long each waited. */
function keepReading(): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await api('GET', `/apps/${APP}/entities/Quiet?limit=5`, { token: other });
      expect(response.status).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}

it('answers another client promptly while one user floods live queries, and tells that user which it refused', async () => {
  const reader = keepReading();
  const socket = await connect(emulator.url, APP, abuser);
  sockets.push(socket);
  const options = (at: number): Json => ({ sort: SORTS[at % SORTS.length] as string, limit: WINDOW });
  const watches: Watched[] = Array.from({ length: SUBSCRIPTIONS }, (_, at) =>
    watch(socket, APP, ENTITY, `flood${at}`, options(at)),
  );
  for (let write = 0; write < WRITES; write += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const body = { rank: RECORDS + write, title: `written ${write}` };
    expect((await api('POST', `/apps/${APP}/entities/${ENTITY}`, { token: abuser, json: body })).status).toBe(201);
  }
  await eventually(
    () => watches.every((one) => one.entities !== undefined || one.errors.length > 0),
    'an answer to every subscription',
    60_000,
  );
  const latencies = await reader.stop();

  const accepted = watches.filter((one) => one.entities !== undefined);
  expect(accepted).toHaveLength(MAX_LIVE_ROWS_PER_CALLER / WINDOW);
  const refused = watches.filter((one) => one.errors.length > 0);
  expect(refused).toHaveLength(SUBSCRIPTIONS - accepted.length);
  expect(new Set(refused.map((one) => one.errors[0]?.code))).toEqual(new Set(['live_rows_exceeded']));
  // The watches it kept are exact.
  for (const one of accepted) {
    const at = Number(one.room.split('flood')[1]);
    const query = `sort=${encodeURIComponent(SORTS[at % SORTS.length] as string)}&limit=${WINDOW}`;
    const expected = (await api<Row[]>('GET', `/apps/${APP}/entities/${ENTITY}?${query}`, { token: abuser })).body;
    await eventually(() => JSON.stringify(one.entities) === JSON.stringify(expected), `${one.room} exact`);
  }
  expect(latencies.length).toBeGreaterThan(10);
  expect(Math.max(...latencies)).toBeLessThan(BOUND_MS);
}, 120_000);
