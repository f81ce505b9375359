/**
 * @jest-environment node
 *
 * Matching a write against the live queries it may affect (emulator/realtime/live-query-intake.ts)
 * stops at the slice's deadline and resumes where it stopped: one write against thousands of
 * windows whose filters no index narrows must not hold the event loop (tried: 2,000 windows of a
 * `$or` of 100 branches held it about 75 ms per write, and another client's reads waited up to
 * 114 ms). Each candidate is matched exactly once, and the write's user hook runs once, at the end.
 */
import { performance } from 'node:perf_hooks';

import type { EntityRecord } from '@/emulator/core/types';
import { SCHEMALESS } from '@/emulator/entities/definition';
import type { ListQuery } from '@/emulator/query/list-query';
import { parseSort } from '@/emulator/query/sort';
import type { LiveQueryCore } from '@/emulator/realtime/live-query-core';
import { WriteIntake } from '@/emulator/realtime/live-query-intake';
import { FairQueue } from '@/emulator/realtime/live-query-queue';
import { LiveWindow } from '@/emulator/realtime/live-query-window';

const WINDOWS = 2000;
/** What one candidate's filter costs here: 2,000 of them take 100 ms, far beyond any slice. */
const FILTER_MS = 0.05;

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Windows of `rank` filters: even ones take the record in. Counts each filter call by window. */
function windowsOf(count: number, calls: Map<number, number>): LiveWindow[] {
  return Array.from({ length: count }, (_, at) => {
    const query: ListQuery = {
      filter: () => {
        calls.set(at, (calls.get(at) ?? 0) + 1);
        busy(FILTER_MS);
        return at % 2 === 0;
      },
      sort: parseSort('rank'),
      limit: 50,
      skip: 0,
      fields: null,
    };
    const window = new LiveWindow(`w${at}`, 'app', 'Item', 'all', query, undefined, 'lane');
    window.definition = 'schemaless';
    window.scope = { rules: { view: (record: EntityRecord) => record } } as unknown as LiveWindow['scope'];
    return window;
  });
}

/** The parts of the live-query server the intake reads: its candidates, the entity files, the queue. */
function coreWith(windows: LiveWindow[]) {
  const queue = new FairQueue((unit) => unit());
  const core = {
    context: { entities: SCHEMALESS },
    index: { candidates: () => [...windows] },
    queue,
    isolated: (_what: string, work: () => void) => {
      work();
      return true;
    },
  } as unknown as LiveQueryCore;
  return { core, queue };
}

const record = (id: string) => ({ id, rank: 1 }) as unknown as EntityRecord;

it('stops matching a write at the deadline and resumes where it stopped, each candidate once', () => {
  const calls = new Map<number, number>();
  const windows = windowsOf(WINDOWS, calls);
  const users: string[] = [];
  const { core, queue } = coreWith(windows);
  const intake = new WriteIntake(core, (_app, id) => users.push(id), 'User');
  intake.push({ appId: 'app', entity: 'Item', type: 'update', record: record('r1') });

  expect(intake.runUntil(performance.now() + 2)).toBe(false);
  const firstSlice = calls.size;
  // One slice stops soon after its deadline, with most candidates still to match.
  expect(firstSlice).toBeGreaterThan(0);
  expect(firstSlice).toBeLessThan(WINDOWS / 4);
  expect(intake.pending).toBe(true);

  let slices = 1;
  while (!intake.runUntil(performance.now() + 2)) slices += 1;
  expect(slices).toBeGreaterThan(4);
  expect(intake.pending).toBe(false);
  expect([...calls.values()].every((count) => count === 1)).toBe(true);
  expect(calls.size).toBe(WINDOWS);
  // The windows the record may enter are queued for their update, the others are left alone.
  expect(windows.filter((window) => window.dirty.has('r1')).length).toBe(WINDOWS / 2);
  expect(windows.every((window, at) => window.dirty.has('r1') === (at % 2 === 0))).toBe(true);
  expect(queue.size).toBe(WINDOWS / 2);
  expect(users).toEqual([]);
});

it('matches writes in order and tells of a user written once its matching is done', () => {
  const calls = new Map<number, number>();
  const windows = windowsOf(40, calls);
  const users: string[] = [];
  const { core } = coreWith(windows);
  const intake = new WriteIntake(core, (_app, id) => users.push(id), 'User');
  intake.push({ appId: 'app', entity: 'User', type: 'update', record: record('u1') });
  intake.push({ appId: 'app', entity: 'Item', type: 'delete', record: record('r2') });
  while (!intake.runUntil(performance.now() + 0.5));
  expect(users).toEqual(['u1']);
  // A delete affects only the windows that hold the record: none here, and no filter runs for it.
  expect([...calls.values()].every((count) => count === 1)).toBe(true);
  expect(windows.some((window) => window.dirty.has('r2'))).toBe(false);
});
