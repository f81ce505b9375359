/**
 * The emulator's storage with a data dir (SQLite): the cost of one acknowledged write and of a
 * filtered, sorted, limited query (a selective one, and a broad one that matches nearly every record
 * and keeps the top 10), at 100 and at 50,000 records of an entity with a schema (every write is
 * validated). Measured over real HTTP with the
 * service role, median of repeated runs. Budgets (reported, not enforced): a write at 50,000
 * records within 2x of one at 100, and the query under 50 ms.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { schemalessDefaultSeed } from '../../emulator/seed/seed';
import { startEmulator } from '../../emulator/start/server';
import { median } from './median';

const APP = 'coming-soon';
const TOKEN = `service-token-${APP}`;
const BULK = 10_000;
const WRITES = 40;
const QUERIES = 25;
export const QUERY = { q: JSON.stringify({ team: 'red', points: { $gte: 500 } }), sort: '-points', limit: '20' };
/** Matches 99% of the records: the cost is in scanning and ranking them all, not in the page. */
export const BROAD_QUERY = { q: JSON.stringify({ points: { $gte: 10 } }), sort: '-points', limit: '10' };

export interface StoreFigures {
  records: number;
  writeMedianMs: number;
  queryMedianMs: number;
  broadQueryMedianMs: number;
}

export interface EmulatorStoreBench {
  small: StoreFigures;
  large: StoreFigures;
  /** Write cost at 50,000 records over the cost at 100 (budget ≤ 2). */
  writeRatio: number;
  queryBudgetMs: number;
}

const TEAMS = ['red', 'blue', 'gold', 'green'];

/** A defined entity, so every write pays for the schema check (enum, bounds, pattern, items) as apps do. */
const BENCH_RECORD = {
  name: 'BenchRecord',
  type: 'object',
  properties: {
    team: { type: 'string', enum: TEAMS },
    points: { type: 'integer', minimum: 0, maximum: 999 },
    name: { type: 'string', maxLength: 40, pattern: '^player [0-9]+$' },
    tags: { type: 'array', items: { type: 'string', minLength: 1 } },
  },
  required: ['team', 'points', 'name'],
};

async function benchProject(dir: string): Promise<string> {
  const entities = path.join(dir, 'project', 'base44', 'entities');
  await mkdir(entities, { recursive: true });
  await writeFile(path.join(entities, 'bench-record.jsonc'), JSON.stringify(BENCH_RECORD));
  return path.join(dir, 'project');
}

function recordAt(index: number): Record<string, unknown> {
  return {
    team: TEAMS[index % TEAMS.length],
    points: (index * 7919) % 1000,
    name: `player ${index}`,
    tags: [`t${index % 10}`],
  };
}

async function call(url: string, method: string, pathAndQuery: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}/api/apps/${APP}/entities/BenchRecord${pathAndQuery}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${pathAndQuery} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function measureAt(records: number): Promise<StoreFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'emulator-bench-'));
  const dataDir = path.join(dir, 'data');
  const emulator = await startEmulator({
    port: 0,
    quiet: true,
    dataDir,
    projectDir: await benchProject(dir),
    seed: schemalessDefaultSeed(),
  });
  try {
    for (let start = 0; start < records; start += BULK) {
      const count = Math.min(BULK, records - start);
      await call(
        emulator.url,
        'POST',
        '/bulk',
        Array.from({ length: count }, (_, offset) => recordAt(start + offset)),
      );
    }
    const writes: number[] = [];
    for (let run = 0; run < WRITES; run += 1)
      writes.push(await timed(() => call(emulator.url, 'POST', '', recordAt(run))));
    const medianQuery = async (params: Record<string, string>) => {
      const search = `?${new URLSearchParams(params).toString()}`;
      const queries: number[] = [];
      for (let run = 0; run < QUERIES; run += 1) queries.push(await timed(() => call(emulator.url, 'GET', search)));
      return Number(median(queries).toFixed(2));
    };
    return {
      records,
      writeMedianMs: Number(median(writes).toFixed(2)),
      queryMedianMs: await medianQuery(QUERY),
      broadQueryMedianMs: await medianQuery(BROAD_QUERY),
    };
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function measureEmulatorStore(): Promise<EmulatorStoreBench> {
  const small = await measureAt(100);
  const large = await measureAt(50_000);
  return {
    small,
    large,
    writeRatio: Number((large.writeMedianMs / small.writeMedianMs).toFixed(2)),
    queryBudgetMs: 50,
  };
}

if (require.main === module) {
  measureEmulatorStore().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
