/**
 * Correctness of live queries under load: two clients hold 20 watches each (filters, sorts both
 * ways, windows, projections, and the same query on both clients) while a writer makes 10,000
 * random creates, updates, deletes and bulk creates, eight at a time. Every 1,000 writes the
 * connections under both clients are dropped, as a network failure would; they reconnect by
 * themselves and ask for fresh results. At the end every watch must equal a fresh `filter()`
 * (nothing missed, nothing stale), and no watch may have been handed the same result twice in a row.
 */
import { createClient, type EntityRecord, type PlatformClient, type WatchOptions } from '../../lib/sdk';
import { waitUntil } from './latency';

const APP_ID = 'coming-soon';
const SERVICE = { token: `service-token-${APP_ID}` };
const CONCURRENCY = 8;
const RECONNECT_EVERY = 1000;

interface Item {
  title: string;
  group: string;
  rank: number;
}

export interface CorrectnessReport {
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

const QUERIES: WatchOptions<Item>[] = [
  {},
  { sort: 'rank', limit: 5 },
  { sort: '-rank', limit: 5 },
  // Two keys: the platform takes a comma list, the typed SortKey names one field.
  { sort: 'title,-rank' as WatchOptions<Item>['sort'], limit: 10 },
  { filter: { group: 'a' }, sort: 'rank', limit: 3 },
  { filter: { group: { $in: ['b', 'c'] } }, sort: '-rank', limit: 8 },
  { filter: { rank: { $gte: 500 } }, sort: 'rank', limit: 20 },
  { filter: { rank: { $lt: 100 } }, sort: '-title' },
  { filter: { $or: [{ group: 'd' }, { rank: { $lt: 50 } }] }, sort: 'rank', limit: 6 },
  { filter: { group: 'e' }, fields: ['title', 'rank'], sort: '-rank', limit: 4 },
];

/** A deterministic random sequence, so every run writes the same thing. */
function randomFrom(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % below;
  };
}

function writeLoop(entity: string, writer: PlatformClient, writes: number, url: string) {
  const random = randomFrom(42);
  const items = writer.entity<Item>(entity);
  const live: string[] = [];
  const fields = (): Item => ({ title: `t${random(300)}`, group: 'abcdef'[random(6)] as string, rank: random(1000) });
  let next = 0;
  let reconnects = 0;
  async function one(): Promise<void> {
    const choice = live.length < 20 ? 0 : random(20);
    if (choice < 8) live.push((await items.create(fields())).id);
    // A record deleted by another worker meanwhile answers 404: that write simply did not happen.
    else if (choice < 15) await items.update(live[random(live.length)] as string, fields()).catch(() => undefined);
    else if (choice < 18) await items.delete(live.splice(random(live.length), 1)[0] as string).catch(() => undefined);
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
  return Promise.all(Array.from({ length: CONCURRENCY }, worker)).then(() => reconnects);
}

export async function checkCorrectness(url: string, { writes }: { writes: number }): Promise<CorrectnessReport> {
  const entity = `CorrectnessBench${Date.now()}`;
  const clients = [0, 1].map(() => createClient({ serverUrl: url, appId: APP_ID, ...SERVICE }));
  const watched: { options: WatchOptions<Item>; results: string[] }[] = [];
  let errors = 0;
  let disconnectsHeard = 0;
  try {
    for (const client of clients) {
      for (const options of [...QUERIES, ...QUERIES.map((query) => ({ ...query, limit: (query.limit ?? 50) + 1 }))]) {
        const one = { options, results: [] as string[] };
        watched.push(one);
        client.entity<Item>(entity).watch(options, (snapshot) => one.results.push(JSON.stringify(snapshot.entities)), {
          onError: () => (errors += 1),
          onDisconnect: () => (disconnectsHeard += 1),
        });
      }
    }
    await waitUntil(() => watched.every((one) => one.results.length > 0), 20_000, 'the first results');
    const writer = createClient({ serverUrl: url, appId: APP_ID, ...SERVICE });
    clients.push(writer);
    const forcedReconnects = await writeLoop(entity, writer, writes, url);
    const reader = writer.entity<Item>(entity);
    const fresh = async ({ filter, sort, limit, fields }: WatchOptions<Item>): Promise<EntityRecord<Item>[]> =>
      reader.filter(filter ?? {}, sort, limit, 0, fields);
    const equal = async () => {
      const checks = await Promise.all(
        watched.map(async (one) => one.results.at(-1) === JSON.stringify(await fresh(one.options))),
      );
      return checks.filter((ok) => !ok).length;
    };
    let mismatched = watched.length;
    await waitUntil(async () => (mismatched = await equal()) === 0, 20_000, 'equal results').catch(() => undefined);
    return {
      writes,
      forcedReconnects,
      disconnectsHeard,
      watches: watched.length,
      snapshots: watched.reduce((total, one) => total + one.results.length, 0),
      mismatched,
      duplicated: watched.reduce(
        (total, one) => total + one.results.filter((text, at) => at > 0 && text === one.results[at - 1]).length,
        0,
      ),
      errors,
    };
  } finally {
    for (const client of clients) client.cleanup();
  }
}
