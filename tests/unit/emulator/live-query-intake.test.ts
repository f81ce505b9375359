/**
 * @jest-environment node
 *
 * Matching writes against the live queries they may affect (emulator/realtime/live-query-intake.ts)
 * is work of the windows' lanes: one caller's thousands of windows whose filters no index narrows
 * must not hold up another caller's matching (tried: with 2,000 windows of a `$or` of 100 branches
 * and 60 writes a second, another caller's watch heard nothing while everything was matched in one
 * queue). Each candidate is matched exactly once, and a lane's matching runs before its updates.
 */
import { performance } from 'node:perf_hooks';

import type { EntityRecord } from '@/emulator/core/types';
import { SCHEMALESS } from '@/emulator/entities/definition';
import type { ListQuery } from '@/emulator/query/list-query';
import { parseSort } from '@/emulator/query/sort';
import { JoinRefused } from '@/emulator/realtime/access';
import { LiveRowsBudget } from '@/emulator/realtime/live-query-budget';
import { requiredValues } from '@/emulator/realtime/live-query-candidates';
import type { LiveQueryCore } from '@/emulator/realtime/live-query-core';
import { LiveQueryIndex, type Subscription } from '@/emulator/realtime/live-query-index';
import { END_CHUNK, MATCH_CHUNK, WriteIntake } from '@/emulator/realtime/live-query-intake';
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
function windowsOf(count: number, calls: Map<number, number>, lane: string): LiveWindow[] {
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
    const window = new LiveWindow(`${lane}${at}`, 'app', 'Item', 'all', query, undefined, lane);
    window.definition = 'schemaless';
    window.scope = { rules: { view: (record: EntityRecord) => record } } as unknown as LiveWindow['scope'];
    return window;
  });
}

/** The parts of the live-query server the intake reads: candidates by entity, the entity files, the queue. */
function coreWith(windowsOf: Record<string, LiveWindow[]>, afterEachUnit: () => void = () => undefined) {
  const queue = new FairQueue((unit) => {
    unit();
    afterEachUnit();
  });
  const core = {
    context: { entities: SCHEMALESS },
    index: { candidates: (_app: string, entity: string) => [...(windowsOf[entity] ?? [])] },
    queue,
    isolated: (_what: string, work: () => void) => {
      work();
      return true;
    },
  } as unknown as LiveQueryCore;
  return { core, queue };
}

const record = (id: string) => ({ id, rank: 1 }) as unknown as EntityRecord;

it("matches each write in its windows' lanes, so another caller's write is matched in its own turn", () => {
  const calls = new Map<number, number>();
  const heavy = windowsOf(WINDOWS, calls, 'heavy');
  const light = windowsOf(1, new Map(), 'light');
  // How many heavy candidates had been matched when the light write was.
  let heavyMatchedBefore: number | undefined;
  const { core, queue } = coreWith({ Item: heavy, Other: light }, () => {
    if (heavyMatchedBefore === undefined && light[0]?.dirty.has('r2')) heavyMatchedBefore = calls.size;
  });
  const intake = new WriteIntake(core, () => undefined);
  intake.push({ appId: 'app', entity: 'Item', type: 'update', record: record('r1') });
  intake.push({ appId: 'app', entity: 'Other', type: 'update', record: record('r2') });
  // Handing the writes out is cheap: the matching waits in the lanes.
  expect(intake.runUntil(performance.now() + 1000)).toBe(true);
  expect(calls.size).toBe(0);
  expect(queue.size).toBe(WINDOWS / MATCH_CHUNK + 1);

  // A slice stops at its deadline, with most of the heavy lane's matching still to do.
  queue.runUntil(performance.now() + 2);
  expect(calls.size).toBeLessThan(WINDOWS / 4);
  while (queue.size > 0) queue.runUntil(performance.now() + 2);
  // The light lane's write was matched in its first turn, after one unit of the heavy lane at most.
  expect(heavyMatchedBefore).toBeLessThanOrEqual(MATCH_CHUNK);
  expect(calls.size).toBe(WINDOWS);
  expect([...calls.values()].every((count) => count === 1)).toBe(true);
  // The windows the record may enter are marked for their update, the others are left alone.
  expect(heavy.every((window, at) => window.dirty.has('r1') === (at % 2 === 0))).toBe(true);
});

it("runs a lane's matching before its other work, and lanes in turn", () => {
  const ran: string[] = [];
  const queue = new FairQueue((unit) => unit());
  queue.push('a', () => ran.push('a: update'));
  queue.pushMatching('a', () => ran.push('a: matching 1'));
  queue.push('b', () => ran.push('b: update'));
  queue.pushMatching('a', () => ran.push('a: matching 2'));
  queue.runUntil(performance.now() + 1000);
  expect(ran).toEqual(['a: matching 1', 'b: update', 'a: matching 2', 'a: update']);
});

it('hands writes out in order and tells of a user written once', () => {
  const calls = new Map<number, number>();
  const windows = windowsOf(40, calls, 'lane');
  const users: string[] = [];
  const { core, queue } = coreWith({ User: windows, Item: windows });
  const intake = new WriteIntake(core, (_app, id) => users.push(id));
  intake.push({ appId: 'app', entity: 'User', type: 'update', record: record('u1') });
  intake.push({ appId: 'app', entity: 'Item', type: 'delete', record: record('r2') });
  expect(intake.runUntil(performance.now() + 1000)).toBe(true);
  queue.runUntil(performance.now() + 1000);
  expect(users).toEqual(['u1']);
  // A delete affects only the windows that hold the record: none here, and no filter runs for it.
  expect([...calls.values()].every((count) => count === 1)).toBe(true);
  expect(windows.some((window) => window.dirty.has('r2'))).toBe(false);
});

/**
 * The live-query server's parts for real subscriptions: the index, budget and queue given, every
 * watcher refused when a window's update checks it (it lost access meanwhile).
 */
function subscribedCore(parts: {
  index: LiveQueryIndex;
  budget: LiveRowsBudget;
  queue: FairQueue;
  findSocket: (id: string) => unknown;
}): LiveQueryCore {
  return {
    ...parts,
    context: { entities: SCHEMALESS },
    access: { check: () => new JoinRefused('Gone meanwhile', 'forbidden_room') },
    isolated: (_what: string, work: () => void) => {
      work();
      return true;
    },
  } as unknown as LiveQueryCore;
}

describe('a lane whose checks wait too long', () => {
  /** Real subscriptions: `heavy` checks every write, `light` only records of group "l"; `other` shares heavy's window. */
  function watched() {
    const index = new LiveQueryIndex();
    const budget = new LiveRowsBudget();
    const told: { socket: string; code: string; room: string }[] = [];
    const socketOf = (id: string) => ({
      id,
      emit: (_event: string, problem: { code: string; room: string }) =>
        told.push({ socket: id, code: problem.code, room: problem.room }),
      disconnect: () => undefined,
    });
    const sockets = new Map(['heavy', 'light', 'other'].map((owner) => [owner, socketOf(owner)]));
    const [heavy, light] = (['heavy', 'light'] as const).map((lane) => {
      const [window] = windowsOf(1, new Map(), lane) as [LiveWindow];
      if (lane === 'heavy') return window;
      const filed = new LiveWindow('light', 'app', 'Item', 'all', window.query, requiredValues({ group: 'l' }), lane);
      filed.definition = window.definition;
      filed.scope = window.scope;
      return filed;
    }) as [LiveWindow, LiveWindow];
    const subscribe = (owner: string, window: LiveWindow) => {
      budget.reserve('app', owner, { limit: 50, filterNodes: 0, optionBytes: 0 });
      const request = {
        appId: 'app',
        entity: 'Item',
        queryId: `q-${owner}`,
        query: window.query,
        options: {},
        filterNodes: 0,
        optionBytes: 0,
      };
      index.add({
        socketId: owner,
        owner,
        request: request as unknown as Subscription['request'],
        room: `room-${owner}`,
        seq: 0,
        window,
        version: 0,
        held: [],
      });
    };
    subscribe('heavy', heavy);
    subscribe('light', light);
    subscribe('other', heavy);
    const queue = new FairQueue((unit) => unit());
    // A window's update checks its watchers first: here every one has lost access meanwhile.
    const core = subscribedCore({ index, budget, queue, findSocket: (id: string) => sockets.get(id) });
    return { core, queue, told, index, budget, heavy, light };
  }

  it("ends its caller's watches with live_queries_busy and drops its waiting checks, and no other lane's", () => {
    const { core, queue, told, index, budget, heavy, light } = watched();
    const intake = new WriteIntake(core, () => undefined, 1);
    const write = (id: string, fields: object) => ({
      appId: 'app',
      entity: 'Item',
      type: 'update' as const,
      record: { ...record(id), ...fields } as EntityRecord,
    });
    intake.push(write('r1', {}));
    intake.runUntil(performance.now() + 1000);
    expect(queue.size).toBe(1); // the heavy lane's check of r1, not yet run
    busy(3); // longer than this intake lets checks wait (1 ms)

    intake.push(write('r2', { group: 'l' }));
    intake.runUntil(performance.now() + 1000);
    // Nothing is ended inside the write's hand-out: the ending is the lane's work.
    expect(told).toEqual([]);
    expect(heavy.stale).toBe(true);
    expect(queue.matchingWait('heavy')).toBe(0);
    // What waits: the light lane's check of r2, the heavy caller's ending and what follows it; none of its checks.
    expect(queue.size).toBe(3);
    queue.runUntil(performance.now() + 1000);
    expect(index.countOf('heavy')).toBe(0);
    // Its rows are free again.
    expect(() => budget.reserve('app', 'heavy', { limit: 100_000, filterNodes: 0, optionBytes: 0 })).not.toThrow();
    expect(light.dirty.has('r2')).toBe(true);
    expect(heavy.dirty.size).toBe(0);
    // Only the overloaded caller was told it is too busy, first; the window another caller still
    // watched was updated after the ending (the update checks its watcher: this fake's refusal).
    expect(told[0]).toEqual({ socket: 'heavy', code: 'live_queries_busy', room: 'room-heavy' });
    expect(told.filter(({ code }) => code === 'live_queries_busy')).toHaveLength(1);
    expect(told).toContainEqual({ socket: 'other', code: 'forbidden_room', room: 'room-other' });
  });

  it("ends thousands of its caller's watches a few at a time, with other lanes' work between, and checks none of them meanwhile", () => {
    const WATCHES = 1000;
    const index = new LiveQueryIndex();
    const budget = new LiveRowsBudget();
    const calls = new Map<number, number>();
    const windows = windowsOf(WATCHES, calls, 'heavy');
    let busyTold = 0;
    const socket = {
      id: 'heavy',
      emit: (_event: string, problem: { code: string }) => void (problem.code === 'live_queries_busy' && busyTold++),
      disconnect: () => undefined,
    };
    windows.forEach((window, at) => {
      budget.reserve('app', 'heavy', { limit: 50, filterNodes: 0, optionBytes: 0 });
      const request = {
        appId: 'app',
        entity: 'Item',
        queryId: `q${at}`,
        query: window.query,
        options: {},
        filterNodes: 0,
        optionBytes: 0,
      };
      const subscription = { socketId: 'heavy', owner: 'heavy', room: `room${at}`, seq: 0, window, version: 0 };
      index.add({ ...subscription, request: request as unknown as Subscription['request'], held: [] });
    });
    // Between any two units: how many watches the unit ended, and when another lane's work ran.
    const endedPerUnit: number[] = [];
    const otherRanAfter: number[] = [];
    let endedBefore = 0;
    const queue = new FairQueue((unit) => {
      unit();
      endedPerUnit.push(busyTold - endedBefore);
      endedBefore = busyTold;
    });
    const core = subscribedCore({ index, budget, queue, findSocket: () => socket });
    const intake = new WriteIntake(core, () => undefined, 1);
    const write = (id: string) => ({ appId: 'app', entity: 'Item', type: 'update' as const, record: record(id) });
    intake.push(write('r1'));
    intake.runUntil(performance.now() + 1000);
    busy(3);
    // Work the caller had queued before (an update, a request): the ending goes ahead of it.
    let endedBeforeBacklog: number | undefined;
    queue.push('heavy', () => (endedBeforeBacklog = busyTold));
    intake.push(write('r2'));
    intake.runUntil(performance.now() + 1000);
    expect(busyTold).toBe(0);
    for (let unit = 0; unit < 10; unit += 1) queue.push('other', () => otherRanAfter.push(busyTold));

    // A write meanwhile queues no check for the caller's windows, and none has been checked; a
    // window read in full meanwhile (another caller joined it) is marked to be read again.
    queue.runUntil(performance.now() + 0.5);
    const last = windows.at(-1) as LiveWindow;
    last.stale = false;
    intake.push(write('r3'));
    intake.runUntil(performance.now() + 1000);
    expect(queue.matchingWait('heavy')).toBe(0);
    expect(last.stale).toBe(true);
    while (queue.size > 0) queue.runUntil(performance.now() + 1000);
    expect(calls.size).toBe(0);
    expect(endedBeforeBacklog).toBe(WATCHES);

    expect(busyTold).toBe(WATCHES);
    expect(index.count()).toBe(0);
    expect(Math.max(...endedPerUnit)).toBeLessThanOrEqual(END_CHUNK);
    // The other lane took its turns while the ending went on, not after it.
    expect(otherRanAfter.slice(0, 5).every((ended, at) => ended <= (at + 1) * END_CHUNK)).toBe(true);
    // Once ended, the caller's writes are checked again (against nothing left of its windows here).
    intake.push(write('r4'));
    intake.runUntil(performance.now() + 1000);
    expect(queue.size).toBe(0);
  });
});
