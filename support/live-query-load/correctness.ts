/**
 * Correctness of live queries under load, at a real app's size: 20,000 records; two clients hold 24
 * watches each, windows of 50 (filters, sorts both ways, on an array field and on a field of mixed
 * types, projections, and the same queries on both clients), while a writer makes 10,000 random
 * creates, updates, deletes and bulk creates, eight at a time. Half of the updates and deletes hit a
 * record some watch shows, so windows keep losing rows and reading their next ones. Every 1,000
 * writes the connections under both clients are dropped, as a network failure would; they
 * reconnect by themselves and ask for fresh results. At the end every watch must equal a fresh
 * `filter()` (nothing missed, nothing stale), and no watch may have been handed the same result
 * twice in a row.
 */
import { createClient, type EntityRecord, type PlatformClient, type WatchOptions } from '../../lib/sdk';
import { APP_ID, benchEntity, randomFrom, seedRecords, SERVICE, waitUntil } from './records';

const RECORDS = 20_000;
const WINDOW = 50;
const CONCURRENCY = 8;
const RECONNECT_EVERY = 1000;
const LEVELS: unknown[] = [1, 2, 'x', 'y', null, true, [3, 1]];

const ENTITY = 'CorrectnessBench';
/** `level` takes every type but objects: a sort over mixed types. */
export const CORRECTNESS_ENTITY = benchEntity(ENTITY, {
  title: 'string',
  group: 'string',
  rank: 'number',
  tags: 'array',
  level: ['number', 'string', 'null', 'boolean', 'array'],
});

interface Item {
  title: string;
  group: string;
  rank: number;
  tags: string[];
  level?: unknown;
}

export interface CorrectnessReport {
  records: number;
  writes: number;
  forcedReconnects: number;
  /** Disconnects the watches heard (each client's watches hear each drop). */
  disconnectsHeard: number;
  watches: number;
  snapshots: number;
  /** Watches not equal to a fresh filter() once the writes were over (missed or stale). */
  mismatched: number;
  /** Snapshots equal to the one before them. */
  duplicated: number;
  errors: number;
}

type Options = WatchOptions<Item>;
// Comma lists of keys: the platform takes them, the typed SortKey names one field.
const keys = (spec: string) => spec as Options['sort'];

const QUERIES: Options[] = (
  [
    {},
    { sort: 'rank' },
    { sort: '-rank' },
    { sort: keys('title,-rank') },
    { sort: keys('tags,-rank') },
    { sort: keys('-level,rank') },
    { filter: { group: 'a' }, sort: 'rank' },
    { filter: { group: { $in: ['b', 'c'] } }, sort: '-rank' },
    { filter: { rank: { $gte: 500 } }, sort: 'rank' },
    { filter: { rank: { $lt: 100 } }, sort: '-title' },
    { filter: { $or: [{ group: 'd' }, { rank: { $lt: 50 } }] }, sort: 'rank' },
    { filter: { tags: 'a' }, fields: ['title', 'rank', 'tags'], sort: keys('tags,title') },
  ] as Options[]
).map((query) => ({ ...query, limit: WINDOW }));

/** The same windows projected: distinct queries on the server, equal rows but for the fields. */
const PROJECTED: Options[] = QUERIES.map((query) => ({ ...query, fields: query.fields ?? ['title', 'rank', 'level'] }));

function itemMaker(random: (below: number) => number): () => Item {
  return () => {
    const item: Item = {
      title: `t${random(300)}`,
      group: 'abcdef'[random(6)] as string,
      rank: random(1000),
      tags: Array.from({ length: random(4) }, () => 'abcde'[random(5)] as string),
    };
    const level = random(LEVELS.length + 1);
    if (level < LEVELS.length) item.level = LEVELS[level];
    return item;
  };
}

interface Watched {
  options: Options;
  results: string[];
  latest: EntityRecord<Item>[];
}

function writeLoop(entity: string, writer: PlatformClient, writes: number, url: string, watched: Watched[]) {
  const random = randomFrom(42);
  const fields = itemMaker(random);
  const items = writer.entity<Item>(entity);
  const live: string[] = [];
  let next = 0;
  let reconnects = 0;
  // Half the time a record some watch shows now: it moves in or leaves a window.
  const target = (): string | undefined => {
    const shown = random(2) === 0 ? watched[random(watched.length)]?.latest : undefined;
    if (shown && shown.length > 0) return shown[random(shown.length)]?.id;
    return live[random(live.length)];
  };
  async function one(): Promise<void> {
    const choice = random(20);
    // A record deleted by another worker meanwhile answers 404: that write simply did not happen.
    const ignoreMissing = () => undefined;
    if (choice < 8) live.push((await items.create(fields())).id);
    else if (choice < 15) await items.update(target() ?? '', fields()).catch(ignoreMissing);
    else if (choice < 18) await items.delete(target() ?? '').catch(ignoreMissing);
    else live.push(...(await items.bulkCreate([fields(), fields()])).map((record) => record.id));
  }
  async function worker(): Promise<void> {
    while (next < writes) {
      next += 1;
      if (next % RECONNECT_EVERY === 0) {
        reconnects += 1;
        // q1 is the first query of each client: dropping its room drops both clients' connections.
        const room = encodeURIComponent(`entities:${APP_ID}:${entity}:watch:q1`);
        await fetch(`${url}/api/_emulator/rooms/${room}/drop`, { method: 'POST' });
      }
      await one();
    }
  }
  return { live, run: () => Promise.all(Array.from({ length: CONCURRENCY }, worker)).then(() => reconnects) };
}

function watchAll(clients: PlatformClient[], entity: string, counts: { errors: number; disconnects: number }) {
  const watched: Watched[] = [];
  for (const client of clients) {
    for (const options of [...QUERIES, ...PROJECTED]) {
      const one: Watched = { options, results: [], latest: [] };
      watched.push(one);
      const hooks = { onError: () => (counts.errors += 1), onDisconnect: () => (counts.disconnects += 1) };
      client.entity<Item>(entity).watch(
        options,
        (snapshot) => {
          one.latest = snapshot.entities;
          one.results.push(JSON.stringify(snapshot.entities));
        },
        hooks,
      );
    }
  }
  return watched;
}

export async function checkCorrectness(url: string, { writes }: { writes: number }): Promise<CorrectnessReport> {
  const entity = ENTITY;
  const clients = [0, 1, 2].map(() => createClient({ serverUrl: url, appId: APP_ID, ...SERVICE }));
  const [writer, ...watchers] = clients as [PlatformClient, ...PlatformClient[]];
  const counts = { errors: 0, disconnects: 0 };
  try {
    const seeded = await seedRecords(writer.entity<Item>(entity), RECORDS, itemMaker(randomFrom(1)));
    const watched = watchAll(watchers, entity, counts);
    await waitUntil(() => watched.every((one) => one.results.length > 0), 60_000, 'the first results');
    const loop = writeLoop(entity, writer, writes, url, watched);
    loop.live.push(...seeded);
    const forcedReconnects = await loop.run();
    const reader = writer.entity<Item>(entity);
    const fresh = ({ filter, sort, limit, fields }: Options) => reader.filter(filter ?? {}, sort, limit, 0, fields);
    const equal = async () => {
      const checks = await Promise.all(
        // A check read the server refuses (over its query budget on a busy machine) is asked again.
        watched.map(async (one) => {
          const expected = await fresh(one.options).catch(() => undefined);
          return expected !== undefined && one.results.at(-1) === JSON.stringify(expected);
        }),
      );
      return checks.filter((ok) => !ok).length;
    };
    let mismatched = watched.length;
    await waitUntil(async () => (mismatched = await equal()) === 0, 30_000, 'equal results').catch(() => undefined);
    return {
      records: RECORDS,
      writes,
      forcedReconnects,
      disconnectsHeard: counts.disconnects,
      watches: watched.length,
      snapshots: watched.reduce((total, one) => total + one.results.length, 0),
      mismatched,
      duplicated: watched.reduce(
        (total, one) => total + one.results.filter((text, at) => at > 0 && text === one.results[at - 1]).length,
        0,
      ),
      errors: counts.errors,
    };
  } finally {
    for (const client of clients) client.cleanup();
  }
}
