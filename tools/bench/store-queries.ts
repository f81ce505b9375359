/**
 * The emulator's storage with a data dir (SQLite), at 100 and at 50,000 records of an entity with a
 * schema (every write is validated, every declared field indexed), over real HTTP with the service
 * role, median of repeated runs (issue 33, benchmarks (c) and (d)):
 *
 * - (c) a selective and a broad filtered, sorted top-10 list and a `count` of each, with the cost
 *   of reading one record by id (the HTTP floor) beside them as the reference of the same run;
 *   goals at 50,000 records: lists ≤ 5 ms, counts ≤ 10 ms;
 * - (d) one acknowledged write at 100 and at 50,000 records; goal: the ratio ≤ 1.5. Writes are
 *   timed after a first query, so they pay for keeping the indexes current.
 *
 * Also reported: the first query at 50,000 records, which builds the indexes it uses, and the
 * machine's load average while this part ran (the figures are only comparable at similar load).
 *
 * Run alone: `npx tsx tools/bench/store-queries.ts` (ports 0 only).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { loadCompiledEmulator } from '../../build-steps/emulator/compile-emulator';
import { schemalessDefaultSeed } from '../../emulator/seed/seed';
import { median } from '../../support/figures';

const APP = 'coming-soon';
const TOKEN = `service-token-${APP}`;
const BULK = 10_000;
const WRITES = 40;
const QUERIES = 25;
/** A quarter of the records are red, half of them score 500 or more. */
const SELECTIVE = JSON.stringify({ team: 'red', points: { $gte: 500 } });
/** Matches 99% of the records: without an index the cost is in reading and ranking them all. */
const BROAD = JSON.stringify({ points: { $gte: 10 } });
const top10 = (q: string) => `?${new URLSearchParams({ q, sort: '-points', limit: '10' }).toString()}`;
const count = (q: string) => `/count?${new URLSearchParams({ q }).toString()}`;

export const STORE_GOALS = { listMs: 5, countMs: 10, writeRatio: 1.5 } as const;

export interface StoreFigures {
  records: number;
  writeMedianMs: number;
  selectiveTop10Ms: number;
  broadTop10Ms: number;
  selectiveCountMs: number;
  broadCountMs: number;
  /** GET of one record by id: the cost of a request that reads nothing else. */
  readByIdMs: number;
  /** The first query after loading, which builds the indexes. */
  firstQueryMs: number;
}

export interface EmulatorStoreBench {
  small: StoreFigures;
  large: StoreFigures;
  /** Write cost at 50,000 records over the cost at 100. */
  writeRatio: number;
  /** The one-minute load average at the end of the run (2 cores). */
  loadAverage: number;
  goals: typeof STORE_GOALS;
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

const rounded = (ms: number) => Number(ms.toFixed(2));

async function measureAt(records: number): Promise<StoreFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'emulator-bench-'));
  const { startEmulator } = await loadCompiledEmulator();
  const emulator = await startEmulator({
    port: 0,
    quiet: true,
    dataDir: path.join(dir, 'data'),
    projectDir: await benchProject(dir),
    seed: schemalessDefaultSeed(),
  });
  const get = (pathAndQuery: string) => call(emulator.url, 'GET', pathAndQuery);
  try {
    for (let start = 0; start < records; start += BULK) {
      const batch = Array.from({ length: Math.min(BULK, records - start) }, (_, offset) => recordAt(start + offset));
      await call(emulator.url, 'POST', '/bulk', batch);
    }
    const firstQueryMs = await timed(() => get(top10(SELECTIVE)));
    const writes: number[] = [];
    let lastId = '';
    for (let run = 0; run < WRITES; run += 1)
      writes.push(
        await timed(async () => {
          lastId = ((await call(emulator.url, 'POST', '', recordAt(run))) as { id: string }).id;
        }),
      );
    const medianOf = async (pathAndQuery: string) => {
      const runs: number[] = [];
      for (let run = 0; run < QUERIES; run += 1) runs.push(await timed(() => get(pathAndQuery)));
      return rounded(median(runs));
    };
    return {
      records,
      writeMedianMs: rounded(median(writes)),
      selectiveTop10Ms: await medianOf(top10(SELECTIVE)),
      broadTop10Ms: await medianOf(top10(BROAD)),
      selectiveCountMs: await medianOf(count(SELECTIVE)),
      broadCountMs: await medianOf(count(BROAD)),
      readByIdMs: await medianOf(`/${encodeURIComponent(lastId)}`),
      firstQueryMs: rounded(firstQueryMs),
    };
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function measureEmulatorStore(): Promise<EmulatorStoreBench> {
  const small = await measureAt(100);
  const large = await measureAt(50_000);
  const writeRatio = Number((large.writeMedianMs / small.writeMedianMs).toFixed(2));
  return { small, large, writeRatio, loadAverage: Number((loadavg()[0] ?? 0).toFixed(1)), goals: STORE_GOALS };
}

const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
const ratio = (ms: number, reference: number) => `${(ms / reference).toFixed(2)}× the read by id`;

/** The rows of the bench table this part owns. */
export function formatStoreRows({
  small,
  large,
  writeRatio,
  loadAverage,
  goals,
}: EmulatorStoreBench): [string, string, string][] {
  const list = (label: string, pick: (figures: StoreFigures) => number, goal: number): [string, string, string] => [
    `Emulator ${label} (100 / 50,000 records)`,
    `${pick(small)} ms / ${pick(large)} ms`,
    `goal ≤ ${goal} ms at 50,000: ${verdict(pick(large) <= goal)}; read by id ${large.readByIdMs} ms (${ratio(pick(large), large.readByIdMs)}); load ${loadAverage}`,
  ];
  return [
    [
      'Emulator write, data dir (100 / 50,000 records)',
      `${small.writeMedianMs} ms / ${large.writeMedianMs} ms`,
      `ratio ${writeRatio} (goal ≤ ${goals.writeRatio}: ${verdict(writeRatio <= goals.writeRatio)}); indexes kept current`,
    ],
    list('selective top-10 query', (figures) => figures.selectiveTop10Ms, goals.listMs),
    list('broad top-10 query, 99% match', (figures) => figures.broadTop10Ms, goals.listMs),
    list('count, selective', (figures) => figures.selectiveCountMs, goals.countMs),
    list('count, broad', (figures) => figures.broadCountMs, goals.countMs),
    [
      'Emulator first query at 50,000 (builds the indexes it uses)',
      `${large.firstQueryMs} ms`,
      `read by id ${large.readByIdMs} ms; load ${loadAverage}`,
    ],
  ];
}

if (require.main === module) {
  measureEmulatorStore().then(
    (figures) => {
      for (const row of formatStoreRows(figures)) console.log(`| ${row.join(' | ')} |`);
      console.log(JSON.stringify(figures, null, 2));
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
