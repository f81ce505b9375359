/**
 * @jest-environment node
 *
 * The planner's answers equal the scan's, on random data and random reads: 10,000 filter / sort /
 * limit / skip cases (plus counts and keyset pages) over records with missing fields, nulls,
 * arrays (empty, mixed, nested), documents and values of every JSON type, read by callers with and
 * without row and field rules, while records are updated, deleted and re-inserted and the indexed
 * fields change (an entity file reload). Deterministic: the seed is printed with any failure;
 * QUERY_INDEX_SEED=<n> replays one.
 */
import { isDeepStrictEqual } from 'node:util';

import type { EntityRecord } from '@/emulator/core/types';
import { compileFilter, valueAt } from '@/emulator/query/engine';
import { countViews } from '@/emulator/query/indexes/execute';
import type { ReadRequest } from '@/emulator/query/indexes/planner';
import { filterAfter, walkKeys } from '@/emulator/query/pages';
import { sortKeyOf, type SortKey } from '@/emulator/query/sort';
import { seededRandom, type SeededRandom } from '@/support/seeded-random';

import {
  collectionOf,
  indexedFieldsOf,
  ITEM_SCHEMA,
  OWNER,
  planned,
  rulesFor,
  scannedViews,
  SERVICE,
  sourceOf,
  userCaller,
} from './index-kit';

const SEED = Number(process.env.QUERY_INDEX_SEED ?? 20261127);
const CASES = Number(process.env.QUERY_INDEX_CASES ?? 10_000);
const RECORDS = 80;

const NUMBERS = [-3, 0, 1, 2, 2.5, 10, 100];
const STRINGS = ['', 'a', 'B', 'b', 'ab', 'é', 'z', '10', '😀'];
const SCALARS: unknown[] = [...NUMBERS, ...STRINGS, true, false, null];
const EMAILS = [OWNER, 'bo@example.com', 'cy@example.com'];
const FIELDS = ['a', 'b', 'tags', 'secret', 'owner', 'u', 'n', 'n.x', 'created_date', 'created_by', 'id'];

function valueOf(random: SeededRandom, depth = 0): unknown {
  const roll = random.int(10);
  if (roll < 5) return random.pick(SCALARS);
  if (roll < 8 && depth < 2)
    return Array.from({ length: random.int(4) }, () =>
      random.chance(0.15) ? valueOf(random, depth + 1) : random.pick(SCALARS),
    );
  if (roll < 9 && depth < 2) return { x: random.pick(SCALARS) };
  return random.pick(NUMBERS);
}

let created = 0;
function randomRecord(random: SeededRandom, id: string): EntityRecord {
  created += random.int(3); // a few records share each date: sorts on it tie
  const date = new Date(Date.UTC(2026, 0, 1) + created * 1000).toISOString();
  const record: Record<string, unknown> = {
    id,
    created_date: date,
    updated_date: date,
    created_by: random.pick(EMAILS),
  };
  if (random.chance(0.8)) record.a = valueOf(random);
  if (random.chance(0.8)) record.b = random.chance(0.7) ? random.int(4) : valueOf(random);
  if (random.chance(0.7))
    record.tags = random.chance(0.8) ? [random.pick(STRINGS), random.pick(STRINGS)] : valueOf(random);
  if (random.chance(0.5)) record.n = random.chance(0.8) ? { x: random.pick(SCALARS) } : valueOf(random);
  if (random.chance(0.6)) record.secret = random.pick(SCALARS);
  if (random.chance(0.7)) record.owner = random.pick(EMAILS);
  if (random.chance(0.3)) record.u = valueOf(random);
  return record as EntityRecord;
}

function operand(random: SeededRandom, field: string): unknown {
  if (field === 'created_date') return new Date(Date.UTC(2026, 0, 1) + random.int(400) * 1000).toISOString();
  if (field === 'created_by' || field === 'owner') return random.pick([...EMAILS, 'x']);
  return random.chance(0.9) ? random.pick(SCALARS) : valueOf(random, 1);
}

function condition(random: SeededRandom, field: string): unknown {
  const value = () => operand(random, field);
  const range = () => random.pick(['$gt', '$gte', '$lt', '$lte']);
  switch (random.int(12)) {
    case 0:
      return value();
    case 1:
      return { $eq: value() };
    case 2:
      return { [range()]: value() };
    case 3:
      return { [range()]: value(), [range()]: value() };
    case 4:
      return { $in: Array.from({ length: 1 + random.int(3) }, value) };
    case 5:
      return { $ne: value() };
    case 6:
      return { $nin: [value(), value()] };
    case 7:
      return { $exists: random.chance(0.5) };
    case 8:
      return { $not: { [range()]: value() } };
    case 9:
      return random.pick([{ $size: random.int(3) }, { $type: random.pick(['string', 'number', 'array', 'null']) }]);
    case 10:
      return { $in: [value(), value()], [range()]: value() };
    default:
      return { $eq: value(), $ne: value() };
  }
}

function filterOf(random: SeededRandom, depth = 0): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (depth === 0 && random.chance(0.3)) {
    const field = random.pick(FIELDS);
    return { [field]: condition(random, field) };
  }
  const parts = random.int(3) + (depth === 0 ? 0 : 1);
  for (let at = 0; at < parts; at += 1) {
    const field = random.pick(FIELDS);
    filter[field] = condition(random, field);
  }
  if (depth < 2 && random.chance(0.2)) {
    const logical = random.pick(['$and', '$or', '$nor']);
    filter[logical] = Array.from({ length: 1 + random.int(2) }, () => filterOf(random, depth + 1));
  }
  return filter;
}

function sortOf(random: SeededRandom): SortKey[] | null {
  if (random.chance(0.1)) return null;
  return Array.from({ length: 1 + random.int(3) }, () => ({
    path: random.pick(FIELDS),
    descending: random.chance(0.5),
  }));
}

/** Fails naming the seed and the case when the planner's answer differs from the scan's. */
function same(at: number, what: unknown, answer: unknown, reference: unknown) {
  if (isDeepStrictEqual(answer, reference)) return;
  const label = `seed ${SEED}, case ${at}: ${JSON.stringify(what)}`;
  expect([label, answer]).toEqual([label, reference]);
}

/** Updates, deletes and (re-)inserts, as the store's writes reach the collection. */
function churn(random: SeededRandom, collection: ReturnType<typeof collectionOf>, deleted: string[]) {
  for (let step = 0; step < 25; step += 1) {
    const ids = [...collection.pairs()].map(([id]) => id);
    const roll = random.int(3);
    if (roll === 0 && ids.length > 0) {
      const id = random.pick(ids);
      collection.remove(id);
      deleted.push(id);
    } else if (roll === 1 && ids.length > 0) {
      const before = collection.get(random.pick(ids)) as EntityRecord;
      collection.put(before.id, { ...randomRecord(random, before.id), created_date: before.created_date });
    } else {
      const id = deleted.length > 0 && random.chance(0.5) ? (deleted.pop() as string) : `n${random.int(1e9)}`;
      collection.put(id, randomRecord(random, id));
    }
  }
}

const VIEWERS = [
  ['the service role', rulesFor(SERVICE)],
  ['a user with row and field rules', rulesFor(userCaller(OWNER))],
  ['another user', rulesFor(userCaller('bo@example.com'))],
] as const;

/** The indexed fields alternate, as when an entity file is edited: `u` declared, `b` not. */
const FIELD_SETS = [
  indexedFieldsOf(ITEM_SCHEMA),
  indexedFieldsOf({ properties: { a: 0, u: 0, tags: 0, n: 0, owner: 0, secret: 0 } }),
];

type Rules = (typeof VIEWERS)[number][1];

/** Each caller's views of the records as they are (the scan's input), taken once between changes. */
const viewsNow = new Map<Rules, readonly EntityRecord[]>();

function checkCase(
  random: SeededRandom,
  collection: ReturnType<typeof collectionOf>,
  at: number,
  tally: Map<string, number>,
) {
  const [, rules] = random.pick(VIEWERS);
  const source = sourceOf(collection, FIELD_SETS[Math.floor(at / 1000) % 2] as string[]);
  if (!viewsNow.has(rules)) viewsNow.set(rules, rules.views(source.records));
  const views = viewsNow.get(rules) as readonly EntityRecord[];
  const filterJson = filterOf(random);
  const filter = compileFilter(filterJson);
  const sort = sortOf(random);
  const skip = random.chance(0.3) ? random.int(10) : 0;
  const take = random.chance(0.1) ? Infinity : skip + random.pick([1, 2, 5, 10, 50, 1000]);
  const request: ReadRequest = { filter, sort, take };
  const what = { filter: filterJson, sort, take };
  const { result, plan } = planned(source, rules, request);
  // The scan, as before indexes: the filter on every view; the list, count and pages all start from it.
  const matches = views.filter((view) => filter(view));
  same(at, what, result, scannedViews(matches, request));
  tally.set(plan.strategy, (tally.get(plan.strategy) ?? 0) + 1);
  if (at % 2 === 0) {
    const count = countViews(source, rules, filter);
    same(at, { count: filterJson }, count.result, matches.length);
    tally.set(`count ${count.plan.strategy}`, (tally.get(`count ${count.plan.strategy}`) ?? 0) + 1);
  }
  if (at % 4 === 1 && sort) checkPage(random, { source, rules, matches }, filter, sort, at, what);
}

/** A keyset page after a random position of the full result: the walk may start at the cursor. */
function checkPage(
  random: SeededRandom,
  { source, rules, matches }: { source: ReturnType<typeof sourceOf>; rules: Rules; matches: EntityRecord[] },
  filter: ReadRequest['filter'],
  sort: SortKey[],
  at: number,
  what: object,
) {
  const keys = walkKeys(sort);
  const all = scannedViews(matches, { filter, sort: keys, take: Infinity });
  const last = all.length > 0 && random.chance(0.8) ? all[random.int(all.length)] : null;
  const after = last ? keys.map((key) => sortKeyOf(valueAt(last, key.path), key.descending)) : null;
  const request: ReadRequest = { filter: filterAfter(filter, keys, after), sort: keys, take: 6 };
  same(at, { ...what, after }, planned(source, rules, request, after?.[0]).result, scannedViews(matches, request));
}

describe('indexed reads against the scan', () => {
  it(`answer ${CASES} random reads exactly as the scan does (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const collection = collectionOf(Array.from({ length: RECORDS }, (_, at) => randomRecord(random, `r${at}`)));
    const deleted: string[] = [];
    const tally = new Map<string, number>();
    for (let at = 0; at < CASES; at += 1) {
      if (at % 250 === 249) {
        churn(random, collection, deleted);
        viewsNow.clear();
      }
      checkCase(random, collection, at, tally);
    }
    // The comparison proves something only if every strategy ran often.
    for (const strategy of ['scan', 'index-sort', 'index-filter', 'count index-count', 'count index-filter'])
      expect([strategy, (tally.get(strategy) ?? 0) >= 100]).toEqual([strategy, true]);
  });
});
