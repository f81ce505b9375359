import { rmSync } from 'node:fs';
import { io, type Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { rowOf } from '@/emulator/realtime/live-query-rows';
import {
  entityProject,
  loginToken,
  SEEDED_ACCOUNTS,
  serviceTokenFor,
  startTestEmulator,
} from '@/tests/support/emulator';
import { eventually } from '@/tests/support/waits';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * A live query whose evaluation fails for a reason that is no refusal (a bug, say) must not take
 * the others down with it, nor the emulator: the work runs in a setImmediate callback, where
 * nothing else would catch the error. The failure is injected where one query's window takes in
 * the written record (one window: the two users see Task differently, a field being hidden from
 * both, so each has its own).
 */

jest.mock('@/emulator/realtime/live-query-rows', () => {
  const actual = jest.requireActual<typeof import('@/emulator/realtime/live-query-rows')>(
    '@/emulator/realtime/live-query-rows',
  );
  return { ...actual, rowOf: jest.fn(actual.rowOf) };
});

const APP = 'coming-soon';
const TASK = {
  name: 'Task',
  type: 'object',
  properties: { title: { type: 'string' }, note: { type: 'string', rls: { read: false, write: true } } },
};
const TASKS = `/apps/${APP}/entities/Task`;
const service = serviceTokenFor(APP);

let root: string;
let emulator: RunningEmulator;
let api: ApiCall;
const logged: string[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  jest.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)));
  root = entityProject('live-query-faults-', [['task.jsonc', TASK]]);
  emulator = await startTestEmulator({ projectDir: root, quiet: false });
  api = apiClient(emulator);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
  jest.restoreAllMocks();
});

/** A socket of `email` watching every Task by title; answers the titles its copy holds. */
async function watchTitles(email: string): Promise<() => string[]> {
  const token = await loginToken(emulator, APP, email);
  const socket = io(emulator.url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    query: { app_id: APP, token },
  });
  sockets.push(socket);
  let titles: string[] | undefined;
  socket.on('subscribed', (message: { entities: Json[] }) => {
    titles = message.entities.map((task) => String(task.title));
  });
  socket.on('update_model', (message: { data: string }) => {
    const edit = JSON.parse(message.data) as { put: { record: Json }[] };
    titles = [...(titles ?? []), ...edit.put.map(({ record }) => String(record.title))];
  });
  socket.emit('subscribe_query', { app_id: APP, entity_name: 'Task', query_id: 'all', options: { sort: 'title' } });
  await eventually(() => titles !== undefined, `${email}'s first result`);
  return () => titles ?? [];
}

it('logs a failing live query and still updates every other one; the emulator stays up', async () => {
  const first = await watchTitles(SEEDED_ACCOUNTS.user.email);
  const second = await watchTitles(SEEDED_ACCOUNTS.member.email);
  jest.mocked(rowOf).mockImplementationOnce(() => {
    throw new TypeError('injected failure');
  });
  expect((await api('POST', TASKS, { token: service, json: { title: 'a' } })).status).toBe(201);
  // One query failed on this change; the other socket's query still got it.
  await eventually(() => [first(), second()].some((titles) => titles.includes('a')), 'the change on the other query');
  await eventually(() => logged.some((line) => line.includes('injected failure')), 'the failure in the log');
  expect(logged.find((line) => line.includes('injected failure'))).toMatch(
    /live queries: the create of Task \S+ for the live query seen as user:\S+ \(1 watch\) failed: TypeError: injected failure/,
  );
  // The emulator still answers, and the next change reaches both queries (the failed one catches up).
  expect((await api('POST', TASKS, { token: service, json: { title: 'b' } })).status).toBe(201);
  await eventually(() => first().includes('b') && second().includes('b'), 'the next change on both queries');
  for (const titles of [first(), second()]) expect(new Set(titles)).toEqual(new Set(['a', 'b']));
});
