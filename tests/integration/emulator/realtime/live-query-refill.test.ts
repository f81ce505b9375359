import { rmSync } from 'node:fs';
import type { Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { reserveFor } from '@/emulator/realtime/live-query-window';
import { entityProject, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';
import { connect, eventually, watch, type Row, type Watched } from './live-query-socket';

/**
 * A full window that ran out of rows reads only the rows it needs, through the query planner as a
 * list does (docs/LIVE-QUERIES.md "What a write costs"): at 20,000 records of an entity whose
 * schema declares the sorted field, a refill looks at about the rows it takes, not at every record.
 * Counted on the query's compiled filter (query/engine.ts compileFilter), which every way of reading
 * (a scan, an index walk, an index's candidates) runs on each record it looks at.
 */

let mockFilterRuns = 0;
jest.mock('@/emulator/query/engine', () => {
  const actual = jest.requireActual<typeof import('@/emulator/query/engine')>('@/emulator/query/engine');
  return {
    ...actual,
    compileFilter: (raw: unknown) => {
      const compiled = actual.compileFilter(raw);
      // The criteria stay on the function: the planner reads them to choose an index.
      return Object.assign((record: Record<string, unknown>) => {
        mockFilterRuns += 1;
        return compiled(record);
      }, compiled);
    },
  };
});

const APP = 'coming-soon';
const service = serviceTokenFor(APP);
const RECORDS = 20_000;
const WINDOW = 50;
const RANKED = {
  name: 'Ranked',
  type: 'object',
  properties: { rank: { type: 'number' }, group: { type: 'string' } },
};
const QUERIES: Record<string, Json> = {
  // Walks the rank index from the window's last row.
  byRank: { filter: { rank: { $gte: 0 } }, sort: 'rank', limit: WINDOW },
  // One record in five matches: the walk reads about five rows per row it takes.
  groupByRank: { filter: { group: 'g0' }, sort: 'rank', limit: WINDOW },
};

let root: string;
let emulator: RunningEmulator;
let api: ApiCall;
let socket: Socket;

beforeAll(async () => {
  root = entityProject('live-refill-', [['ranked.jsonc', RANKED]]);
  emulator = await startTestEmulator({ projectDir: root });
  api = apiClient(emulator);
  // Ranks in a scrambled order, so insertion order says nothing about the sort.
  const records = Array.from({ length: RECORDS }, (_, at) => ({ rank: (at * 7919) % RECORDS, group: `g${at % 5}` }));
  for (let from = 0; from < RECORDS; from += 5000) {
    const json = records.slice(from, from + 5000);
    const created = await api('POST', `/apps/${APP}/entities/Ranked/bulk`, { token: service, json });
    expect(created.status).toBe(201);
  }
  socket = await connect(emulator.url, APP, service);
}, 60_000);
afterAll(async () => {
  socket?.disconnect();
  await emulator?.close();
  rmSync(root, { recursive: true, force: true });
});

async function fresh(options: Json): Promise<Row[]> {
  const search = new URLSearchParams({ q: JSON.stringify(options.filter), sort: String(options.sort) });
  search.set('limit', String(options.limit));
  return (await api<Row[]>('GET', `/apps/${APP}/entities/Ranked?${search}`, { token: service })).body;
}

it.each(Object.keys(QUERIES))(
  '%s: a full window that lost more rows than its reserve reads about the rows it takes, not every record',
  async (name) => {
    const options = QUERIES[name] as Json;
    const watched: Watched = watch(socket, APP, 'Ranked', name, options);
    await eventually(() => watched.entities !== undefined, 'the first result');
    // The window keeps its rows and a reserve; deleting its first row each time uses the reserve up.
    const runs: number[] = [];
    for (let removed = 0; removed <= reserveFor(WINDOW); removed += 1) {
      const first = (watched.entities as Row[])[0]?.id as string;
      const heard = watched.messages.length;
      mockFilterRuns = 0;
      expect((await api('DELETE', `/apps/${APP}/entities/Ranked/${first}`, { token: service })).status).toBe(200);
      await eventually(() => watched.messages.length > heard, 'the edit');
      runs.push(mockFilterRuns);
    }
    expect(watched.errors).toEqual([]);
    expect(JSON.stringify(watched.entities)).toBe(JSON.stringify(await fresh(options)));
    const refill = runs.at(-1) as number;
    // The last delete left the window short: it read the rows after its last one. A scan would
    // run the filter on all 20,000 records; the walk on about five per row taken, at worst.
    expect(refill).toBeGreaterThan(reserveFor(WINDOW));
    expect(refill).toBeLessThan(20 * (WINDOW + reserveFor(WINDOW)));
    // Until then, each delete only took a row of the reserve.
    expect(Math.max(...runs.slice(0, -1))).toBeLessThan(5);
  },
);
