import type { RunningEmulator } from '@/emulator/core/types';
import { startTestEmulator } from '@/tests/support/emulator';

import { runSdkScenario, stepValue, type StepResult } from './fixtures/run-sdk-scenario';

/**
 * The unmodified @base44/sdk 0.8.50 drives the entity calls it has beyond CRUD against the
 * emulator (fixtures/sdk-entity-scenario.ts): the wire format is the reference client's own.
 */

jest.setTimeout(60_000);

let emulator: RunningEmulator;
let results: Record<string, StepResult>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  results = await runSdkScenario('sdk-entity-scenario.ts', emulator.url);
});
afterAll(() => emulator.close());

const value = <T>(step: string): T => stepValue<T>(results, step);

type Row = Record<string, unknown>;

it('count() answers a number, with and without a query', () => {
  expect(value('count')).toEqual({ all: 6, red: 3, fast: 2 });
});

it('aggregate() groups, measures, sorts and filters groups with having', () => {
  const byTeam = value<{ rows: Row[]; truncated: boolean }>('aggregateByTeam');
  expect(byTeam.truncated).toBe(false);
  expect(byTeam.rows[0]).toEqual({
    team: 'red',
    count: 3,
    sum_points: 21,
    avg_points: 7,
    min_points: 5,
    max_points: 9,
    count_distinct_player: 3,
  });
  expect(byTeam.rows.slice(1)).toEqual(
    expect.arrayContaining([
      { team: 'blue', count: 2, sum_points: 4, avg_points: 2, min_points: 1, max_points: 3, count_distinct_player: 2 },
      { team: 'gold', count: 1, sum_points: 4, avg_points: 4, min_points: 4, max_points: 4, count_distinct_player: 1 },
    ]),
  );
  expect(value('aggregateHaving')).toEqual({ rows: [{ team: 'red', count: 3 }], truncated: false });
  expect(value('aggregateTotal')).toEqual({ rows: [{ count: 6, sum_points: 29 }], truncated: false });
  const buckets = value<{ rows: Row[] }>('aggregateDateBucket').rows;
  expect(buckets).toEqual([{ created_date: expect.stringMatching(/^\d{4}-\d{2}-01$/) as unknown, count: 6 }]);
});

it('upsert() updates by key, creates the rest, and the last record of a key wins', () => {
  const result = value<{ created: number; updated: number; records: Row[] }>('upsert');
  expect(result).toMatchObject({ created: 1, updated: 1 });
  expect(result.records).toEqual([
    expect.objectContaining({ player: 'p1', team: 'red', points: 50 }),
    expect.objectContaining({ player: 'p7', team: 'gold', points: 8 }),
  ]);
});

it('updateMany() applies update operators to every match; bulkUpdate() gives each record its fields', () => {
  expect(value('updateMany')).toEqual({ success: true, updated: 2, has_more: false });
  expect(value<Row[]>('bulkUpdate')).toEqual([
    expect.objectContaining({ player: 'p2', points: 0 }),
    expect.objectContaining({ player: 'p6', team: 'red' }),
  ]);
  expect(value('afterWrites')).toEqual([
    { player: 'p1', team: 'red', points: 50 },
    { player: 'p2', team: 'red', points: 0 },
    { player: 'p3', team: 'blue', points: 13, bonus: true },
    { player: 'p4', team: 'red', points: 9 },
    { player: 'p5', team: 'blue', points: 11, bonus: true },
    { player: 'p6', team: 'red', points: 4 },
    { player: 'p7', team: 'gold', points: 8 },
  ]);
});

it('sends a real-time event for every record that changed', () => {
  expect(value('events')).toEqual([
    { type: 'update', player: 'p1' },
    { type: 'create', player: 'p7' },
    { type: 'update', player: 'p3' },
    { type: 'update', player: 'p5' },
    { type: 'update', player: 'p2' },
    { type: 'update', player: 'p6' },
    { type: 'create', player: 'p0' },
    { type: 'delete', player: 'p4' },
    { type: 'delete', player: 'p2' },
  ]);
});

it('walks cursor pages that stay correct while records are inserted and deleted between pages', () => {
  const walk = value<{ seen: string[]; firstCursorType: string; lastCursor: unknown }>('cursorWalk');
  expect(walk.firstCursorType).toBe('string');
  expect(walk.lastCursor).toBeNull();
  // p0 was created before the boundary and p4 deleted before it was reached: neither shows;
  // nothing repeats and nothing that lived through the walk is skipped.
  expect(walk.seen).toEqual(['p2', 'p6', 'p7', 'p5', 'p3', 'p1']);
});

it('filter() with options pages with the query and fields carried by the cursor', () => {
  const { first, second } = value<{
    first: { items: Row[]; has_more: boolean };
    second: { items: Row[]; has_more: boolean; next_cursor: unknown };
  }>('filterPages');
  expect(first.has_more).toBe(true);
  expect(first.items).toEqual([{ id: expect.any(String) as unknown, player: 'p1', points: 50 }]);
  expect(second.items.map((item) => item.player)).toEqual(['p6', 'p0']);
  expect(Object.keys(second.items[0] ?? {}).sort()).toEqual(['id', 'player', 'points']);
  expect(second).toMatchObject({ has_more: false, next_cursor: null });
});

it('reads distinct values in ascending order, array elements one by one, in cursor pages', () => {
  const { teams, tags } = value<{ teams: Row; tags: Row[] }>('distinct');
  expect(teams).toEqual({ items: ['blue', 'gold', 'red'], next_cursor: null, has_more: false });
  expect(tags[0]).toMatchObject({ items: ['fast', 'new'], has_more: true });
  expect(tags[1]).toEqual({ items: ['tall'], next_cursor: null, has_more: false });
});

it('refuses a cursor that is not one, and keeps the older array routes', () => {
  expect(results.cursorMismatch).toMatchObject({ ok: false, status: 400 });
  expect(value('olderRoutes')).toEqual({ list: 2, filter: 1 });
});
