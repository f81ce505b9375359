import { rmSync } from 'node:fs';
import path from 'node:path';

import type { RunningEmulator } from '@/emulator/core/types';
import { entityProject, serviceTokenFor, startTestEmulator, testSeed, writeEntityFile } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * Indexed reads over HTTP, with a data dir and a project whose entity file changes while the
 * emulator runs. Each indexed query is asked twice: as written (the planner may use an index) and
 * wrapped in a one-branch `$or` (which no index serves: the scan); the answers must be the same
 * after creates, updates, deletes, bulk changes, a restart from the data dir and a schema reload.
 * (Which plan a read gets is checked in tests/unit/emulator/query/index-plans.test.ts.)
 */

const APP = 'coming-soon';
const BASE = `/apps/${APP}/entities/Score`;
const token = serviceTokenFor(APP);
const schema = (extra: Json = {}) =>
  JSON.stringify({
    name: 'Score',
    type: 'object',
    properties: { player: { type: 'string' }, points: { type: 'number' }, tags: { type: 'array' }, ...extra },
  });

let root: string;
let dataDir: string;
let emulator: RunningEmulator;
let api: ApiCall;

async function start() {
  const seed = testSeed();
  for (const app of seed.apps) app.schemaless = false;
  emulator = await startTestEmulator({ projectDir: root, dataDir, seed });
  api = apiClient(emulator);
}

beforeAll(async () => {
  root = entityProject('indexes-', [['score.jsonc', schema()]]);
  dataDir = path.join(root, 'data');
  await start();
  const records = Array.from({ length: 600 }, (_, at) => ({
    player: `p${at % 40}`,
    points: (at * 37) % 1000,
    ...(at % 5 === 0 ? {} : { tags: [`t${at % 3}`, `t${at % 4}`] }),
  }));
  expect((await api('POST', `${BASE}/bulk`, { token, json: records })).status).toBe(201);
});

afterAll(async () => {
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
});

const get = async (pathAndQuery: string) => {
  const response = await api<unknown>('GET', `${BASE}${pathAndQuery}`, { token });
  expect(response.status).toBe(200);
  return response.body;
};
const list = (q: unknown, sort: string, limit = 20, skip = 0) =>
  get(`?${new URLSearchParams({ q: JSON.stringify(q), sort, limit: `${limit}`, skip: `${skip}` }).toString()}`);
const count = (q: unknown) => get(`/count?q=${encodeURIComponent(JSON.stringify(q))}`);

/** Every page of a cursor walk, concatenated. */
async function walk(q: unknown, sort: string): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(cursor ? { cursor, limit: '45' } : { q: JSON.stringify(q), sort, limit: '45' });
    const page = (await get(`/v2/list?${params.toString()}`)) as { items: Json[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

const QUERIES: [unknown, string][] = [
  [{ player: 'p7' }, '-points'],
  [{ points: { $gte: 900 } }, 'points'],
  [{ points: { $gt: 100, $lt: 140 } }, '-created_date'],
  [{ tags: 't2' }, '-tags,points'],
  [{ player: { $in: ['p1', 'p2'] }, points: { $lt: 500 } }, 'player,-points'],
  [{}, '-points'],
  [{ points: { $gte: 10 } }, '-points'],
];

async function expectIndexedEqualsScan() {
  for (const [q, sort] of QUERIES) {
    const scan = { $or: [q] };
    expect([q, sort, await list(q, sort)]).toEqual([q, sort, await list(scan, sort)]);
    expect([q, sort, await list(q, sort, 7, 5)]).toEqual([q, sort, await list(scan, sort, 7, 5)]);
    expect([q, await count(q)]).toEqual([q, await count(scan)]);
  }
  expect(await walk({ points: { $lt: 300 } }, '-points')).toEqual(
    await walk({ $or: [{ points: { $lt: 300 } }] }, '-points'),
  );
}

describe('indexed reads over HTTP', () => {
  it('answer as the scan does, and follow updates, deletes and bulk changes', async () => {
    await expectIndexedEqualsScan();
    const [top] = (await list({}, '-points', 1)) as Json[];
    const moved = await api('PUT', `${BASE}/${top?.id as string}`, { token, json: { points: -1 } });
    expect(moved.status).toBe(200);
    expect(((await list({}, 'points', 1)) as Json[])[0]?.id).toBe(top?.id);
    await api('DELETE', `${BASE}/${top?.id as string}`, { token });
    expect(await list({ points: -1 }, 'points')).toEqual([]);
    expect(
      (
        await api('PATCH', `${BASE}/update-many`, {
          token,
          json: { query: { player: 'p3' }, data: { $set: { points: 5 } } },
        })
      ).status,
    ).toBe(200);
    expect(await count({ player: 'p3', points: 5 })).toEqual({ count: 15 });
    expect((await api('DELETE', BASE, { token, json: { player: 'p4' } })).status).toBe(200);
    expect(await count({ player: 'p4' })).toEqual({ count: 0 });
    await expectIndexedEqualsScan();
  });

  it('answer the same after a restart from the data dir', async () => {
    const before = await list({ points: { $gte: 500 } }, '-points', 50);
    await emulator.close();
    await start();
    expect(await list({ points: { $gte: 500 } }, '-points', 50)).toEqual(before);
    await expectIndexedEqualsScan();
  });

  it('index a field a reloaded entity file declares, and keep it current', async () => {
    writeEntityFile(root, 'score.jsonc', schema({ level: { type: 'number' } }));
    for (let tries = 0; tries < 300; tries += 1) {
      const created = await api<Json>('POST', BASE, { token, json: { player: 'probe', points: 1, level: 3 } });
      if (created.body.level === 3) break;
      await api('DELETE', `${BASE}/${created.body.id as string}`, { token });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await count({ level: 3 })).toEqual({ count: 1 });
    await api('POST', BASE, { token, json: { player: 'later', points: 2, level: 3 } });
    expect(((await list({ level: 3 }, 'points')) as Json[]).map((item) => item.player)).toEqual(['probe', 'later']);
    expect(await list({ level: { $gte: 3 } }, '-created_date')).toEqual(
      await list({ $or: [{ level: { $gte: 3 } }] }, '-created_date'),
    );
  });
});
