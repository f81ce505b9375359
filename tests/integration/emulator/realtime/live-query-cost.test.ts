import type { Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { reserveFor } from '@/emulator/realtime/live-query-window';
import { storedRecords } from '@/emulator/records/scope';
import { serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';
import { connect, eventually, watch, type Row, type Watched } from './live-query-socket';

/**
 * Live queries cost what changed (docs/LIVE-QUERIES.md "Cost"): a write updates each affected
 * window from the written record, and the records are read only when a full window has lost more
 * rows than the reserve it keeps beyond what it shows; watches of the same query and view share one
 * window, read once. Counted on
 * the records layer's only way to all of an entity's records (records/scope.ts storedRecords), so
 * re-running a query per write (or per watch) shows as reads.
 */

jest.mock('@/emulator/records/scope', () => {
  const actual = jest.requireActual<typeof import('@/emulator/records/scope')>('@/emulator/records/scope');
  return { ...actual, storedRecords: jest.fn(actual.storedRecords) };
});

const APP = 'coming-soon';
const service = serviceTokenFor(APP);
const RECORDS = 1500;
const TOP: Json = { sort: 'rank', limit: 10 };
const GROUP_ONE: Json = { filter: { group: 'g1' }, sort: '-rank', limit: 10 };
const LOW: Json = { filter: { rank: { $lt: 100 } }, sort: 'rank', limit: 200 };

let emulator: RunningEmulator;
let api: ApiCall;
const sockets: Socket[] = [];

beforeAll(async () => {
  emulator = await startTestEmulator();
  api = apiClient(emulator);
  const records = Array.from({ length: RECORDS }, (_, rank) => ({ rank, group: `g${rank % 5}` }));
  for (const entity of ['SharedItem', 'WrittenItem']) {
    const created = await api('POST', `/apps/${APP}/entities/${entity}/bulk`, { token: service, json: records });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await emulator.close();
});

const reads = () => jest.mocked(storedRecords).mock.calls.length;

async function fresh(entity: string, options: Json): Promise<Row[]> {
  const search = new URLSearchParams();
  if (options.filter) search.set('q', JSON.stringify(options.filter));
  search.set('sort', String(options.sort));
  search.set('limit', String(options.limit));
  return (await api<Row[]>('GET', `/apps/${APP}/entities/${entity}?${search}`, { token: service })).body;
}

async function write(entity: string, method: string, body: Json | null, id = ''): Promise<Row> {
  const path = `/apps/${APP}/entities/${entity}${id ? `/${id}` : ''}`;
  const response = await api<Row>(method, path, { token: service, ...(body ? { json: body } : {}) });
  expect(response.status).toBeLessThan(300);
  return response.body;
}

const idOfRank = async (entity: string, rank: number) =>
  (await fresh(entity, { filter: { rank }, sort: 'rank', limit: 1 }))[0]?.id as string;

/** Reads of all the records a step made, once every watch equals a fresh filter() again. */
async function readsOf(entity: string, step: () => Promise<unknown>, watches: [Watched, Json][]): Promise<number> {
  jest.mocked(storedRecords).mockClear();
  await step();
  for (const [watched, options] of watches) {
    const expected = JSON.stringify(await fresh(entity, options));
    await eventually(() => JSON.stringify(watched.entities) === expected, `${watched.room} equal to filter()`);
  }
  // Each check above read once over HTTP (a list reads every record): those do not count.
  return reads() - watches.length;
}

async function twoSockets(): Promise<[Socket, Socket]> {
  const pair: [Socket, Socket] = [await connect(emulator.url, APP, service), await connect(emulator.url, APP, service)];
  sockets.push(...pair);
  return pair;
}

it('shares one window, read once, among the watches of one query and view, and one edit text', async () => {
  const entity = 'SharedItem';
  const [first, second] = await twoSockets();
  jest.mocked(storedRecords).mockClear();
  // Twenty watches of one query on two sockets of the same view.
  const shared = Array.from({ length: 20 }, (_, at) => watch(at % 2 ? second : first, APP, entity, `top${at}`, TOP));
  await eventually(() => shared.every((watched) => watched.entities !== undefined), 'first results');
  expect(reads()).toBe(1);

  const checked: [Watched, Json][] = [[shared[0] as Watched, TOP]];
  expect(await readsOf(entity, () => write(entity, 'POST', { rank: -1, group: 'g1' }), checked)).toBe(0);
  const zero = await idOfRank(entity, 0);
  expect(await readsOf(entity, () => write(entity, 'DELETE', null, zero), checked)).toBe(0);
  await eventually(() => shared.every((watched) => watched.messages.length === 2), 'every watch told');
  // The same edits for all, each numbered for its own query.
  const texts = shared.map((watched) => JSON.stringify(watched.messages.map(({ query_id: _, ...rest }) => rest)));
  expect(new Set(texts).size).toBe(1);
  expect(shared.map((watched) => watched.messages.map((message) => message.query_id))).toEqual(
    shared.map((_, at) => [`top${at}`, `top${at}`]),
  );
});

it('after a write reads no records unless a full window ran out of rows, and then only for that window', async () => {
  const entity = 'WrittenItem';
  const [first, second] = await twoSockets();
  const watched: [Watched, Json][] = [
    [watch(first, APP, entity, 'top', TOP), TOP],
    [watch(first, APP, entity, 'g1', GROUP_ONE), GROUP_ONE],
    [watch(second, APP, entity, 'low', LOW), LOW],
  ];
  await eventually(() => watched.every(([one]) => one.entities !== undefined), 'first results');
  // Behind every window, then one that only enters the window that holds every match.
  const behind = async () => {
    await write(entity, 'POST', { rank: 5000, group: 'g2' });
    await write(entity, 'POST', { rank: 50.5, group: 'g2' });
  };
  expect(await readsOf(entity, behind, watched)).toBe(0);
  // Moves inside two windows; enters two (a full one's last row drops out).
  const three = await idOfRank(entity, 3);
  expect(await readsOf(entity, () => write(entity, 'PUT', { rank: 4.5 }, three), watched)).toBe(0);
  expect(await readsOf(entity, () => write(entity, 'POST', { rank: -1, group: 'g1' }), watched)).toBe(0);
  // Rows leave a full window (and one that holds every match): the full one shows the next row of
  // its reserve, and reads once more rows have left than it keeps beyond what it shows.
  const [top] = watched[0] as [Watched, Json];
  const leave = (at: number) => {
    const first = (top.entities as Row[])[0]?.id as string;
    return at % 2 ? write(entity, 'DELETE', null, first) : write(entity, 'PUT', { rank: 9999 + at }, first);
  };
  for (let at = 0; at < reserveFor(10); at += 1) expect(await readsOf(entity, () => leave(at), watched)).toBe(0);
  expect(await readsOf(entity, () => leave(reserveFor(10)), watched)).toBe(1);
  expect(await readsOf(entity, () => leave(reserveFor(10) + 1), watched)).toBe(0);
});
