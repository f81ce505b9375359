import { rmSync } from 'node:fs';
import type { Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { DEFAULT_SEED_PATH } from '@/emulator/seed/seed';
import { entityProject, loginToken, SEEDED_ACCOUNTS, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall } from '../api';
import { connect } from '../realtime/live-query-socket';

/**
 * The query budget is the request's own: work the write sets off for others, such as checking each
 * subscriber of an entity room against the entity's read rule, runs on no request's clock. With a
 * budget of 0 ms a request's clock is spent at its 64th evaluation; a write that 64 subscribers are
 * checked for (32 sockets of another user, then 32 of its author: at most 50 per user) must still be
 * stored, answered and delivered to every socket that may read it.
 */

const APP = 'coming-soon';
const ENTITY = 'Notice';
const SUBSCRIBERS = 64;

let root: string;
let emulator: RunningEmulator;
let api: ApiCall;
let token: string;
let otherToken: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  const notice = {
    name: ENTITY,
    type: 'object',
    properties: { text: { type: 'string' } },
    rls: { create: true, read: { created_by: '{{user.email}}' }, write: { created_by: '{{user.email}}' } },
  };
  root = entityProject('budget-deliveries-', [['notice.jsonc', notice]]);
  emulator = await startTestEmulator({ projectDir: root, seed: DEFAULT_SEED_PATH, queryBudgetMs: 0 });
  api = apiClient(emulator);
  token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  otherToken = await loginToken(emulator, APP, SEEDED_ACCOUNTS.member.email);
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
});

it(`stores, answers and delivers a write checked for ${SUBSCRIBERS} subscribers of a rule-bound room`, async () => {
  const room = `entities:${APP}:${ENTITY}`;
  for (let at = 0; at < SUBSCRIBERS; at += 1)
    sockets.push(await connect(emulator.url, APP, at < SUBSCRIBERS / 2 ? otherToken : token));
  const heard = sockets.slice(SUBSCRIBERS / 2).map(
    (socket) =>
      new Promise<string>((resolve) =>
        socket.on('update_model', (message: { room: string; data: string }) => {
          if (message.room === room) resolve(message.data);
        }),
      ),
  );
  for (const socket of sockets) socket.emit('join', room);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { body } = await api('POST', `/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
      json: { event: 'probe', payload: null },
    });
    if (body.delivered === SUBSCRIBERS) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }

  const { status, body } = await api('POST', entityPath(APP, ENTITY), { json: { text: 'hello' }, token });
  expect({ status, code: body.code }).toEqual({ status: 201, code: undefined });
  // Bounded: a subscriber that was skipped never hears anything.
  const delivered = await Promise.all(
    heard.map((data) =>
      Promise.race([data, new Promise<string>((resolve) => setTimeout(() => resolve('{"id":"none"}'), 5000))]),
    ),
  );
  expect(delivered.map((data) => (JSON.parse(data) as { id: string }).id)).toEqual(
    new Array<string>(SUBSCRIBERS / 2).fill(body.id as string),
  );
  const { body: count } = await api('GET', entityPath(APP, ENTITY, '/count'), { token });
  expect(count).toEqual({ count: 1 });
});
