/**
 * @jest-environment node
 *
 * What an indexed read costs, observed through what it touches (never through timing): an index is
 * built only when a read first needs its field; a count whose filter is exactly served conditions
 * views and filters no record; a walk views only records every served condition's index accepts;
 * counts of a stretch come from the tree's cached subtree sizes and equal a count by visiting, through
 * inserts, updates and deletes. Every answer still equals the scan's.
 */
import type { EntityRecord } from '@/emulator/core/types';
import { compileFilter, type RecordPredicate } from '@/emulator/query/engine';
import { countViews, readViews, type Viewer } from '@/emulator/query/indexes/execute';
import { FieldIndex, type IndexKey, type Slot } from '@/emulator/query/indexes/field-index';
import type { ReadRequest } from '@/emulator/query/indexes/planner';
import { parseSort } from '@/emulator/query/sort';

import {
  collectionOf,
  indexedFieldsOf,
  ITEM_SCHEMA,
  planned,
  record,
  rulesFor,
  scanned,
  SERVICE,
  sourceOf,
} from './index-kit';

const FIELDS = indexedFieldsOf(ITEM_SCHEMA);
const SIZE = 2000;

/** `a` unique 0..1999, `b` one of four, `owner` one of 100, `tags` two of seven (multikey). */
function records(): EntityRecord[] {
  return Array.from({ length: SIZE }, (_, at) =>
    record({ a: at, b: at % 4, owner: `owner-${at % 100}`, tags: [`t${at % 7}`, `t${(at + 1) % 7}`] }, at % 500),
  );
}

/** The service role's rules, counting the records viewed and the filter's evaluations. */
function counting() {
  const rules = rulesFor(SERVICE);
  const touched = { views: 0, evaluations: 0 };
  const viewer: Viewer = {
    view: (item) => {
      touched.views += 1;
      return rules.view(item);
    },
    views: (items) => {
      touched.views += items.length;
      return rules.views(items);
    },
    mayHideField: (field) => rules.mayHideField(field),
    seesEverything: rules.seesEverything,
  };
  const filterOf = (json: unknown): RecordPredicate => {
    const compiled = compileFilter(json);
    const test = (item: Record<string, unknown>) => {
      touched.evaluations += 1;
      return compiled(item);
    };
    return Object.assign(test, { criteria: compiled.criteria });
  };
  return { rules, viewer, touched, filterOf };
}

describe('an indexed read', () => {
  it('builds the index of a field when a read first needs it, and only then', () => {
    const collection = collectionOf(records());
    const source = sourceOf(collection, FIELDS);
    expect(source.indexes?.built()).toEqual([]);
    const ask: ReadRequest = { filter: compileFilter({ owner: 'owner-3' }), sort: parseSort('-a'), take: 5 };
    planned(source, rulesFor(SERVICE), ask);
    expect(source.indexes?.built()).toEqual(['owner', 'a']);
    // Writes keep the built indexes current; a field first used later indexes the new records too.
    const added = record({ a: 5000, b: 9, owner: 'owner-3' });
    collection.put(added.id, added);
    const later = sourceOf(collection, FIELDS);
    const ninth = planned(later, rulesFor(SERVICE), { filter: compileFilter({ b: 9 }), sort: null, take: Infinity });
    expect(ninth).toMatchObject({ result: [added], plan: { strategy: 'index-filter', field: 'b' } });
    expect(planned(later, rulesFor(SERVICE), ask).result[0]).toEqual(added);
    expect(later.indexes?.built()).toEqual(['owner', 'a', 'b']);
  });

  it.each<[string, unknown, object]>([
    ['two exact conditions', { b: 1, a: { $gte: 1000 } }, { field: 'b', checked: ['a'] }],
    ['conditions inside $and', { $and: [{ owner: 'owner-3' }, { a: { $lt: 1500, $gte: 100 } }] }, { field: 'owner' }],
    ['an array element and $in', { tags: 't3', b: { $in: [0, 2] } }, { field: 'tags', checked: ['b'] }],
    ['an empty range', { a: { $gt: 10, $lt: 2 } }, { field: 'a' }],
  ])('counts %s from the indexes, viewing and filtering no record', (_label, filter, expected) => {
    const source = sourceOf(collectionOf(records()), FIELDS);
    const { rules, viewer, touched, filterOf } = counting();
    const count = countViews(source, viewer, filterOf(filter));
    expect(count.plan).toMatchObject({ strategy: 'index-count', ...expected });
    expect(touched).toEqual({ views: 0, evaluations: 0 });
    const ask: ReadRequest = { filter: compileFilter(filter), sort: null, take: Infinity };
    expect(count.result).toBe(scanned(source.records, rules, ask).length);
  });

  it('counts by reading records when a part of the filter is no exact served condition', () => {
    const source = sourceOf(collectionOf(records()), FIELDS);
    const { viewer, touched, filterOf } = counting();
    const count = countViews(source, viewer, filterOf({ b: 1, a: { $gte: 1000, $ne: 1001 } }));
    expect(count).toMatchObject({ result: 249, plan: { strategy: 'index-filter', field: 'b' } });
    expect(touched.evaluations).toBeGreaterThan(0);
  });

  it("walks the sort index viewing only the records every served condition's index accepts", () => {
    const source = sourceOf(collectionOf(records()), FIELDS);
    const { rules, viewer, touched, filterOf } = counting();
    const ask: ReadRequest = {
      filter: filterOf({ b: 1, a: { $lt: 1900 } }),
      sort: parseSort('-a'),
      take: 10,
    };
    const { result, plan } = readViews(source, viewer, ask);
    expect(plan).toMatchObject({ strategy: 'index-sort', field: 'a' });
    expect(result).toEqual(scanned(source.records, rules, ask));
    // The walk met 1999, 1998, ... down to 1861, the tenth match; only the ten matches were viewed.
    expect(touched.views).toBe(10);
  });
});

describe("an index's count of a stretch", () => {
  it('equals a count by visiting the stretch, through inserts, updates and deletes', () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    const slot = (seq: number): Slot => ({ id: `s${seq}`, seq, record: { v: random(500) } as never, filed: [] });
    const slots = Array.from({ length: 20_000 }, (_, seq) => slot(seq));
    const index = FieldIndex.build('v', 0, slots);
    const visited = (low: IndexKey, high: IndexKey) => {
      let entries = 0;
      index.between(low, high, () => {
        entries += 1;
      });
      return entries;
    };
    for (let round = 0; round < 40; round += 1) {
      for (let change = 0; change < 500; change += 1) {
        const at = random(slots.length);
        const roll = random(3);
        if (roll === 0) index.remove(slots[at] as Slot);
        else if (roll === 1) {
          (slots[at] as Slot).record = { v: random(500) } as never;
          index.add(slots[at] as Slot);
        } else {
          slots.push(slot(slots.length));
          index.add(slots[slots.length - 1] as Slot);
        }
      }
      const low: IndexKey = [random(500), random(2) === 0 ? -Infinity : Infinity];
      const high: IndexKey = [(low[0] as number) + random(100), Infinity];
      expect(index.countBetween(low, high)).toBe(visited(low, high));
      expect(index.countBetween([-Infinity, -Infinity], [Infinity, Infinity])).toBe(index.entries);
      // The leaf-by-leaf count of a count's first condition, and the check of another by the entry's key.
      expect(index.countWhere(low, high, () => true)).toBe(visited(low, high));
      const odd = (value: unknown) => (value as number) % 2 === 1;
      let oddVisited = 0;
      index.between(low, high, (_value, found) => {
        if (index.files(found, odd)) oddVisited += 1;
      });
      expect(index.countWhere(low, high, (key) => index.filesEntry(key, odd))).toBe(oddVisited);
    }
  });
});
