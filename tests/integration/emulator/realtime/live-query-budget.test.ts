import type { Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { MAX_QUERIES_PER_SOCKET } from '@/emulator/realtime/live-queries';
import {
  MAX_LIVE_ROWS_PER_APP,
  MAX_LIVE_ROWS_PER_CALLER,
  MIN_ROWS_PER_WATCH,
  rowsCounted,
} from '@/emulator/realtime/live-query-budget';
import { MAX_OPTION_BYTES } from '@/emulator/realtime/live-query-request';
import { MAX_SOCKETS_PER_USER } from '@/emulator/realtime/socket';
import { loginToken, SEEDED_ACCOUNTS, startTestEmulator } from '@/tests/support/emulator';

import { connect, eventually, watch, type Watched } from './live-query-socket';

/**
 * The limits that keep one caller from taking the emulator's live-query work for itself
 * (docs/LIVE-QUERIES.md "Limits"): live rows (watches × window size) per caller and per app,
 * refused with `live_rows_exceeded` naming the query's room, and open sockets per user.
 */

const APP = 'coming-soon';
const ENTITY = 'Budgeted';
const WINDOW = 10_000;
const PER_CALLER = MAX_LIVE_ROWS_PER_CALLER / WINDOW;

let emulator: RunningEmulator;
let ana: string;
let bo: string;
const sockets: Socket[] = [];

// An emulator per test: the budgets of one test's watches must not still count in the next.
beforeEach(async () => {
  emulator = await startTestEmulator();
  ana = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  bo = await loginToken(emulator, APP, SEEDED_ACCOUNTS.member.email);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  await emulator.close();
});

async function socketOf(token: string | null): Promise<Socket> {
  const socket = await connect(emulator.url, APP, token);
  sockets.push(socket);
  return socket;
}

const answered = (watched: Watched) => watched.entities !== undefined || watched.errors.length > 0;

async function watchMany(socket: Socket, prefix: string, count: number, limit = WINDOW): Promise<Watched[]> {
  const watches = Array.from({ length: count }, (_, at) => watch(socket, APP, ENTITY, `${prefix}${at}`, { limit }));
  await eventually(() => watches.every(answered), `answers to ${prefix}`);
  return watches;
}

it('refuses a watch beyond the live rows of its caller (over all its sockets), and counts ended watches no more', async () => {
  const socket = await socketOf(ana);
  const accepted = await watchMany(socket, 'a', PER_CALLER);
  expect(accepted.every((watched) => watched.errors.length === 0 && watched.entities !== undefined)).toBe(true);
  const [refused] = await watchMany(socket, 'over', 1);
  expect(refused?.entities).toBeUndefined();
  expect(refused?.errors).toEqual([
    expect.objectContaining({ code: 'live_rows_exceeded', room: `entities:${APP}:${ENTITY}:watch:over0` }),
  ]);
  expect(refused?.errors[0]?.message).toContain('100,000');
  // Another socket of the same user is the same caller; another user has a budget of its own.
  const [alsoRefused] = await watchMany(await socketOf(ana), 'other', 1);
  expect(alsoRefused?.errors[0]).toMatchObject({ code: 'live_rows_exceeded' });
  const [own] = await watchMany(await socketOf(bo), 'bo', 1);
  expect(own?.errors).toEqual([]);
  // A smaller window still fits nowhere; once a watch ends, its rows are free again.
  expect((await watchMany(socket, 'small', 1, 1))[0]?.errors[0]).toMatchObject({ code: 'live_rows_exceeded' });
  const unsubscribed = new Promise((resolve) => socket.once('unsubscribed', resolve));
  socket.emit('unsubscribe_query', { app_id: APP, entity_name: ENTITY, query_id: 'a0' });
  await unsubscribed;
  expect((await watchMany(socket, 'again', 1))[0]?.errors).toEqual([]);
});

it(`counts a window smaller than ${MIN_ROWS_PER_WATCH} rows as ${MIN_ROWS_PER_WATCH}: windows of one row cannot pile up`, async () => {
  // Each window costs the server about 5 KB before its first row: counted as one row each, one
  // caller could hold 100,000 of them (some 700 MiB).
  const most = MAX_LIVE_ROWS_PER_CALLER / MIN_ROWS_PER_WATCH;
  for (let at = 0; at < most; at += MAX_QUERIES_PER_SOCKET) {
    const watches = await watchMany(await socketOf(ana), `tiny${at}-`, Math.min(MAX_QUERIES_PER_SOCKET, most - at), 1);
    expect(watches.flatMap((watched) => watched.errors)).toEqual([]);
  }
  const [refused] = await watchMany(await socketOf(ana), 'one-more', 1, 1);
  expect(refused?.errors[0]).toMatchObject({ code: 'live_rows_exceeded' });
  expect(refused?.errors[0]?.message).toContain(`window of 1 row (counted as ${MIN_ROWS_PER_WATCH})`);
});

it("counts the size of a watch's filter: windows of the largest filters cannot pile up", async () => {
  // The engine keeps a compiled `$or` of 100 two-field branches at about 192 KB: counted by rows
  // only, one user's 2,000 of them held a heap of 450 MB, and filters of the largest allowed shapes
  // well over a gigabyte.
  const branches = (at: number) =>
    Array.from({ length: 100 }, (_, branch) => ({ rank: { $gt: at + branch }, title: { $ne: `t${branch}` } }));
  const nodes = 1 + 100 + 100 * 4; // $or, its branches, two fields and an operator each
  const counted = rowsCounted({ limit: 50, filterNodes: nodes, optionBytes: 0 });
  expect(counted).toBeGreaterThan(MAX_LIVE_ROWS_PER_CALLER / 100);
  const most = Math.floor(MAX_LIVE_ROWS_PER_CALLER / counted);
  const socket = await socketOf(ana);
  const watches = Array.from({ length: most + 1 }, (_, at) =>
    watch(socket, APP, ENTITY, `costly${at}`, { filter: { $or: branches(at) } }),
  );
  await eventually(() => watches.every(answered), 'answers to the costly watches');
  expect(watches.slice(0, most).flatMap((watched) => watched.errors)).toEqual([]);
  const refused = watches[most]?.errors[0];
  expect(refused).toMatchObject({ code: 'live_rows_exceeded' });
  expect(refused?.message).toContain(
    `window of 50 rows and a filter of ${nodes} conditions and values (counted as ${counted.toLocaleString('en-US')})`,
  );
  // The same window without its filter still fits: only the filter's size was over.
  expect((await watchMany(socket, 'plain', 1, 50))[0]?.errors).toEqual([]);
});

it('counts the size of what a watch sends, and refuses options larger than filter() can send', async () => {
  // A long string is one node of a filter, but the server keeps the options as sent (twice): 200
  // watches of a 900 KB filter string took 586 MiB.
  const socket = await socketOf(ana);
  const huge = watch(socket, APP, ENTITY, 'huge', { filter: { title: 'x'.repeat(900_000) } });
  await eventually(() => answered(huge), 'the answer to the huge watch');
  expect(huge.errors[0]).toMatchObject({ code: 'invalid_query' });
  expect(huge.errors[0]?.message).toContain('at most 16,384 are allowed');
  // Just under the limit: accepted, and counted by its bytes.
  const long = (at: number) => ({ filter: { title: `${at}`.padEnd(MAX_OPTION_BYTES - 40, 'x') } });
  const bytes = Buffer.byteLength(JSON.stringify(long(0)));
  expect(bytes).toBeLessThanOrEqual(MAX_OPTION_BYTES);
  const counted = rowsCounted({ limit: 50, filterNodes: 1, optionBytes: bytes });
  const most = Math.floor(MAX_LIVE_ROWS_PER_CALLER / counted);
  expect(most).toBeLessThan(1000);
  const watches = Array.from({ length: most + 1 }, (_, at) => watch(socket, APP, ENTITY, `long${at}`, long(at)));
  await eventually(() => watches.every(answered), 'answers to the long watches');
  expect(watches.slice(0, most).flatMap((watched) => watched.errors)).toEqual([]);
  expect(watches[most]?.errors[0]?.message).toContain(
    `window of 50 rows and options of ${bytes.toLocaleString('en-US')} bytes`,
  );
});

it('refuses a watch beyond the live rows of the app, whoever asks', async () => {
  // Visitors each count on their own (one socket each), so only the app's budget holds them.
  const visitors = MAX_LIVE_ROWS_PER_APP / MAX_LIVE_ROWS_PER_CALLER;
  for (let visitor = 0; visitor < visitors; visitor += 1) {
    const watches = await watchMany(await socketOf(null), `v${visitor}-`, PER_CALLER);
    expect(watches.flatMap((watched) => watched.errors)).toEqual([]);
  }
  const [refused] = await watchMany(await socketOf(null), 'late', 1);
  expect(refused?.errors[0]).toMatchObject({ code: 'live_rows_exceeded' });
  expect(refused?.errors[0]?.message).toContain("the app's live queries");
});

it(`opens at most ${MAX_SOCKETS_PER_USER} sockets per user, and another once one closed`, async () => {
  const open = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_USER }, () => socketOf(ana)));
  // (Tracked, so that a socket let in by mistake is closed after the test.)
  const onceMore = connect(emulator.url, APP, ana).then((socket) => void sockets.push(socket));
  await expect(onceMore).rejects.toMatchObject({ data: { code: 'too_many_sockets' } });
  // Other users and visitors are not held back by her sockets.
  await socketOf(bo);
  await socketOf(null);
  open[0]?.disconnect();
  await eventually(async () => {
    try {
      sockets.push(await connect(emulator.url, APP, ana));
      return true;
    } catch {
      return false;
    }
  }, 'a socket after one closed');
});
