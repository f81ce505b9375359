import { rmSync } from 'node:fs';
import type { Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { DEFAULT_SEED_PATH } from '@/emulator/seed/seed';
import {
  entityProject,
  loginToken,
  SEEDED_ACCOUNTS,
  SEEDED_PASSWORD,
  startTestEmulator,
  writeEntityFile,
} from '@/tests/support/emulator';

import { apiClient, type ApiCall } from '../api';
import { connect, eventually, watch, type Row } from './live-query-socket';

/**
 * What a live query is answered with is decided as of now, also where work is shared or kept:
 * watches of one query and view share a window (docs/LIVE-QUERIES.md "What a write costs"), and one
 * read under the entity's old rules must not be handed to a watch that joins after the files
 * changed (the window is read again first, its earlier watches get the difference); and who the
 * socket's caller is, is asked again for every subscription, so a token revoked since is refused.
 */

const APP = 'coming-soon';
const CARDS = `/apps/${APP}/entities/Card`;
const card = (codeRule: unknown) => ({
  name: 'Card',
  type: 'object',
  properties: { title: { type: 'string' }, code: { type: 'string', rls: { read: codeRule, write: true } } },
  rls: { create: true, read: { created_by: '{{user.email}}' }, write: { created_by: '{{user.email}}' } },
});

let root: string;
let emulator: RunningEmulator;
let api: ApiCall;
const sockets: Socket[] = [];

beforeAll(async () => {
  root = entityProject('live-query-reload-', [['card.jsonc', card(true)]]);
  emulator = await startTestEmulator({ projectDir: root, seed: DEFAULT_SEED_PATH });
  api = apiClient(emulator);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await emulator.close();
  rmSync(root, { recursive: true, force: true });
});

it('reads a shared window again under changed rules before another watch joins it', async () => {
  const ana = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  const socket = await connect(emulator.url, APP, ana);
  sockets.push(socket);
  const first = watch(socket, APP, 'Card', 'first', { sort: 'title' });
  expect((await api('POST', CARDS, { token: ana, json: { title: 'a', code: 'c1' } })).status).toBe(201);
  await eventually(() => first.entities?.[0]?.code === 'c1', 'the card with its code');

  writeEntityFile(root, 'card.jsonc', card(false));
  await eventually(async () => {
    const listed = await api<Row[]>('GET', CARDS, { token: ana });
    return listed.body.length === 1 && !('code' in (listed.body[0] as Row));
  }, 'the reloaded rules');

  const second = watch(socket, APP, 'Card', 'second', { sort: 'title' });
  await eventually(() => second.entities !== undefined, 'the second watch');
  expect(second.entities).toEqual([expect.not.objectContaining({ code: expect.anything() })]);
  // The watch that was there before is brought to the same rows.
  await eventually(() => JSON.stringify(first.entities) === JSON.stringify(second.entities), 'the first watch updated');
});

it('asks who the caller is again for every subscription: a token revoked since is refused', async () => {
  const bo = await loginToken(emulator, APP, SEEDED_ACCOUNTS.member.email);
  const socket = await connect(emulator.url, APP, bo);
  sockets.push(socket);
  const before = watch(socket, APP, 'Card', 'before', {});
  await eventually(() => before.entities !== undefined, 'the first watch');
  const changed = await api('POST', `/apps/${APP}/auth/change-password`, {
    token: bo,
    json: { user_id: SEEDED_ACCOUNTS.member.id, current_password: SEEDED_PASSWORD, new_password: 'another-password-1' },
  });
  expect(changed.status).toBe(200);
  const after = watch(socket, APP, 'Card', 'after', {});
  await eventually(() => after.errors.length > 0, 'the refusal');
  expect(after.entities).toBeUndefined();
  expect(after.errors[0]).toMatchObject({ code: 'invalid_token' });
});
