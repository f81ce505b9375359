/**
 * @jest-environment node
 *
 * A live query's window kept from the changed records alone (emulator/realtime/live-query-window.ts)
 * must always equal a fresh `filter()` (query/list-query.ts runListQuery) over the records as the
 * subscriber sees them: random records with missing fields, nulls, arrays (empty too), nested
 * documents and mixed types, many ties (equal keys fall back to insertion order, reversed when the
 * first key descends), a field the subscriber may not see, random sorts, filters and windows, and
 * random batches of creates, updates and deletes, some of them taken in only later (written, not
 * yet published) as happens when the store is ahead of the queue. A client's copy kept from the
 * edits alone must equal the window after every update.
 */
import type { EntityRecord } from '@/emulator/core/types';
import { compileFilter } from '@/emulator/query/engine';
import { CollectionIndexes } from '@/emulator/query/indexes/collection-indexes';
import { readViews, type Viewer } from '@/emulator/query/indexes/execute';
import { runListQuery, type ListQuery } from '@/emulator/query/list-query';
import { insertionOrderOf, rankedAfter } from '@/emulator/query/pages';
import { parseSort } from '@/emulator/query/sort';
import type { ResultEdit, ResultRecord } from '@/emulator/realtime/live-query-diff';
import { LiveWindow, type WindowReader } from '@/emulator/realtime/live-query-window';
import { Collection } from '@/emulator/store/collection';
import { randomFrom } from '@/support/live-query-load/records';

const VALUES: unknown[] = [
  0,
  1,
  2,
  2.5,
  -1,
  'a',
  'b',
  'B',
  '',
  null,
  true,
  false,
  [],
  [1],
  [2, 0],
  ['a', 3],
  { x: 1 },
  { x: 0 },
];
const SORTS = [
  'rank',
  '-rank',
  'tag,-rank',
  '-tag,rank',
  'secret',
  '-secret,rank',
  'meta.level',
  '-created_date',
  'title,id',
];
const FILTERS: unknown[] = [
  {},
  { group: 'a' },
  { group: { $in: ['a', 'b'] } },
  { rank: { $gte: 1 } },
  { $or: [{ group: 'c' }, { rank: { $lt: 1 } }] },
  { secret: { $exists: false } },
  { tag: { $ne: null } },
];
const FIELDS: (string[] | null)[] = [null, ['title'], ['rank', 'tag'], ['meta.level']];

/** The subscriber may not read `secret` on records of group "b": it sorts and filters as missing there. */
function viewOf(record: EntityRecord): EntityRecord | null {
  if (record.group === 'hidden') return null;
  if (record.group !== 'b' || !Object.hasOwn(record, 'secret')) return record;
  const { secret: _hidden, ...rest } = record;
  return rest as EntityRecord;
}

/** The plans refills were read by: the index walks with a start place must be among them. */
const plansOfRefills = new Set<string>();

const INDEXED = ['id', 'created_date', 'group', 'rank', 'tag', 'secret', 'title'];

/** The subscriber's rules as the planner asks them: `secret` may be hidden, so no walk of its index. */
const viewer: Viewer = {
  view: viewOf,
  views: (records) => records.flatMap((record) => viewOf(record) ?? []),
  mayHideField: (field) => field === 'secret',
  seesEverything: false,
};

/** The records in the store's own collection, read through its indexes and the planner as reads.ts does. */
class Store {
  readonly records = new Collection<EntityRecord>(() => undefined);
  private readonly indexes = CollectionIndexes.of(this.records, INDEXED);
  private next = 0;

  constructor(private readonly random: (below: number) => number) {}

  get ids(): string[] {
    return [...this.records.pairs()].map(([id]) => id);
  }

  private get list(): readonly EntityRecord[] {
    return this.records.all();
  }

  private fields(): Record<string, unknown> {
    const pick = () => VALUES[this.random(VALUES.length)];
    const record: Record<string, unknown> = { group: 'abcb'[this.random(4)] ?? 'a' };
    if (this.random(10) === 0) record.group = 'hidden';
    if (this.random(4) > 0) record.rank = this.random(3) === 0 ? pick() : this.random(5);
    if (this.random(3) > 0) record.tag = pick();
    if (this.random(2) > 0) record.secret = this.random(4);
    if (this.random(3) > 0) record.title = `t${this.random(4)}`;
    if (this.random(3) === 0) record.meta = { level: pick() };
    return record;
  }

  create(): string {
    this.next += 1;
    // Records made in the same millisecond tie on created_date: a bulk create does that.
    const id = `r${this.next}`;
    this.records.put(id, { id, created_date: `2026-01-0${1 + this.random(3)}`, ...this.fields() } as EntityRecord);
    return id;
  }

  update(id: string): void {
    const before = this.records.get(id) as EntityRecord;
    this.records.put(id, { id, created_date: before.created_date, ...this.fields() } as EntityRecord);
  }

  delete(id: string): void {
    this.records.remove(id);
  }

  views(): EntityRecord[] {
    return this.list.flatMap((record) => viewOf(record) ?? []);
  }

  reader(query: ListQuery): WindowReader {
    return {
      stored: (id) => this.records.get(id),
      view: viewOf,
      after: (position, take) => {
        const source = { records: this.list, indexes: this.indexes };
        const read = (filter: ListQuery['filter'], wanted: number, start?: unknown) => {
          const { result, plan } = readViews(source, viewer, { filter, sort: query.sort, take: wanted }, start);
          if (position) plansOfRefills.add(plan.strategy);
          return result;
        };
        return rankedAfter(
          read,
          query,
          position,
          take,
          insertionOrderOf(() => this.list),
        );
      },
      order: insertionOrderOf(() => this.list),
    };
  }
}

/** The edit rule of docs/LIVE-QUERIES.md, as a client applies it. */
/** Deep equality, asked of jest only when the texts differ (thousands of checks stay cheap). */
function expectSame(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual).toEqual(expected);
}

function applyEdit(list: readonly ResultRecord[], { remove, put }: ResultEdit): ResultRecord[] {
  const dropped = new Set([...remove, ...put.map(({ row }) => row.id)]);
  const next = list.filter((record) => !dropped.has(record.id));
  for (const { index, row } of put) next.splice(index, 0, row.record);
  return next;
}

/** What live-queries.ts does with a published write: mark the window if the record may change it. */
function takeIn(window: LiveWindow, id: string, deleted: boolean, stored: EntityRecord | undefined): void {
  const view = stored && viewOf(stored);
  const affects = window.ids.has(id) || (!deleted && !!view && window.query.filter(view) && window.mayTake(view));
  if (affects) window.written(id, deleted ? 'delete' : 'update');
}

/** The ids an edit puts or removes: the records a client sees change. */
const namedBy = ({ remove, put }: ResultEdit): Set<string> => new Set([...remove, ...put.map(({ row }) => row.id)]);

function runScenario(seed: number, reserve: number | undefined): { reads: number; updates: number } {
  const random = randomFrom(seed);
  const store = new Store(random);
  // Sometimes fewer records than the window keeps, mostly more: its reserve runs out and it reads.
  for (let at = 0, count = random(4) === 0 ? random(30) : 40 + random(80); at < count; at += 1) store.create();
  const query: ListQuery = {
    filter: compileFilter(FILTERS[random(FILTERS.length)]),
    sort: parseSort(SORTS[random(SORTS.length)] as string),
    limit: 1 + random(8),
    skip: 0,
    fields: FIELDS[random(FIELDS.length)] ?? null,
  };
  // Some scenarios mostly delete: windows lose rows faster than they gain them.
  const shrinking = random(3) === 0 ? 3 : 0;
  let reads = 0;
  const counted = (reader: WindowReader): WindowReader => ({
    ...reader,
    after: (position, take) => {
      reads += 1;
      return reader.after(position, take);
    },
  });
  const window = new LiveWindow('key', 'app', 'Thing', 'all', query, undefined, 'lane', reserve);
  window.evaluate(store.reader(query));
  let client = window.shown.map((row) => row.record);
  let unpublished: { id: string; deleted: boolean }[] = [];
  let updates = 0;
  for (let step = 0; step < 30; step += 1) {
    // A batch of writes, all in the store at once; some are published only with the next batch.
    const batch: { id: string; deleted: boolean }[] = [];
    for (let write = 0, writes = 1 + random(6); write < writes; write += 1) {
      const ids = store.ids;
      const choice = ids.length === 0 ? 0 : random(10) - shrinking;
      if (choice < 4) batch.push({ id: store.create(), deleted: false });
      else if (choice < 8) {
        const id = ids[random(ids.length)] as string;
        store.update(id);
        batch.push({ id, deleted: false });
      } else {
        const id = ids[random(ids.length)] as string;
        store.delete(id);
        batch.push({ id, deleted: true });
      }
    }
    const publishNow = [...unpublished, ...batch.filter(() => random(4) > 0)];
    unpublished = batch.filter((write) => !publishNow.includes(write));
    for (const { id, deleted } of publishNow) takeIn(window, id, deleted, store.reader(query).stored(id));
    // Sometimes more writes come in before the window's update runs.
    const check = unpublished.length === 0 && random(3) > 0;
    if (window.dirty.size > 0 && (check || random(2) > 0)) {
      const written = [...window.dirty.keys()];
      const { change } = window.update(counted(store.reader(query)));
      updates += 1;
      // The message names a write the client sees, when one is among those the update took in.
      if (change) {
        const seen = written.filter((id) => namedBy(change.edit).has(id));
        if (seen.length > 0) expect({ seed, step, cause: change.cause.id }).toEqual({ seed, step, cause: seen[0] });
      }
      // The client's copy, kept from the edits alone, is the window's rows.
      if (change) client = applyEdit(client, change.edit);
      expectSame({ seed, step, client }, { seed, step, client: window.shown.map((row) => row.record) });
    }
    if (!check) continue;
    const expected = runListQuery(store.views(), query);
    expectSame({ seed, step, rows: window.shown.map((row) => row.record) }, { seed, step, rows: expected });
  }
  return { reads, updates };
}

it('names the write a client sees when writes reach one update together, not one that changed only the reserve', () => {
  const store = new Store(randomFrom(7));
  const query: ListQuery = {
    filter: compileFilter({}),
    sort: parseSort('rank'),
    limit: 3,
    skip: 0,
    fields: null,
  };
  const put = (id: string, rank: number) => {
    store.records.put(id, {
      id,
      created_date: '2026-01-01',
      updated_date: '2026-01-01',
      created_by: 'svc',
      group: 'a',
      rank,
    });
  };
  for (const [at, rank] of [10, 20, 30, 40, 50].entries()) put(`r${at}`, rank);
  const window = new LiveWindow('key', 'app', 'Thing', 'all', query, undefined, 'lane');
  window.evaluate(store.reader(query));
  // Far behind the three shown (into the unseen reserve), then one that enters first, before the update runs.
  put('behind', 99);
  window.written('behind', 'create');
  put('marker', -1000);
  window.written('marker', 'create');
  const { change } = window.update(store.reader(query));
  expect(change?.cause).toEqual({ type: 'create', id: 'marker' });
  expect(change?.changeType).toBe('added');
  expect(change?.data?.id).toBe('marker');
  expect(change?.edit.put.map(({ row }) => row.id)).toEqual(['marker']);
});

it.each([
  ['its reserve of rows beyond the window', undefined],
  ['no reserve (every row that leaves a full window is read again)', 0],
])('equals a fresh filter() after every batch of writes, over 250 random scenarios, with %s', (_label, reserve) => {
  let reads = 0;
  let updates = 0;
  plansOfRefills.clear();
  for (let seed = 1; seed <= 250; seed += 1) {
    const outcome = runScenario(seed, reserve);
    reads += outcome.reads;
    updates += outcome.updates;
  }
  expect(updates).toBeGreaterThan(1500);
  // Windows do read the rows they lost, but far less often than they are updated.
  expect(reads).toBeGreaterThan(reserve === 0 ? 200 : 0);
  expect(reads).toBeLessThan(updates / 3);
  // Refills are read by every plan the planner has (those of windows without a reserve are many).
  if (reserve === 0) expect([...plansOfRefills].sort()).toEqual(['index-filter', 'index-sort', 'scan']);
});
