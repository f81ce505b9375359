import { io, type Socket } from 'socket.io-client';

import type { RunningEmulator } from '@/emulator/core/types';
import { ACCESS_TOKEN_TTL_SECONDS } from '@/emulator/credentials/tokens';
import {
  loginToken,
  SEEDED_ACCOUNTS,
  SEEDED_PASSWORD,
  serviceTokenFor,
  startTestEmulator,
} from '@/tests/support/emulator';

import { apiClient, entityPath, type ApiCall } from '../api';

/**
 * A socket is only as good as its token is now: after a password change, the user's deletion or
 * the token's expiry it must stop receiving updates, in rooms and in live queries alike
 * (docs/LIVE-QUERIES.md). A second, anonymous socket in the same room shows that the update really
 * went out.
 */

const APP = 'coming-soon';
const ROOM = `entities:${APP}:Note`;
let emulator: RunningEmulator;
let api: ApiCall;
let now: number;
const sockets: Socket[] = [];

beforeEach(async () => {
  now = Date.now();
  emulator = await startTestEmulator({ clock: () => now });
  api = apiClient(emulator);
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  await emulator.close();
});

function connect(token?: string): Promise<Socket> {
  const query: Record<string, string> = { app_id: APP, ...(token === undefined ? {} : { token }) };
  const socket = io(emulator.url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    query,
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function roomSize(room = ROOM): Promise<number> {
  const { body } = await api('POST', `/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
    json: { event: 'probe', payload: null },
  });
  return body.delivered as number;
}

/** Joins are not acknowledged; poll the room's size until both sockets are in it. */
async function joinBoth(victim: Socket, witness: Socket): Promise<void> {
  victim.emit('join', ROOM);
  witness.emit('join', ROOM);
  for (let attempt = 0; attempt < 200 && (await roomSize()) < 2; attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await roomSize()).toBe(2);
}

/** Revokes the victim's access, creates a record, and reports what each socket saw. */
async function afterRevocation(revoke: (token: string) => Promise<void>) {
  const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  const victim = await connect(token);
  const witness = await connect();
  await joinBoth(victim, witness);
  const victimUpdates: unknown[] = [];
  victim.on('update_model', (message: unknown) => victimUpdates.push(message));
  const victimError = new Promise<{ code: string }>((resolve) => victim.once('error', resolve));
  const victimGone = new Promise<string>((resolve) => victim.once('disconnect', resolve));
  const witnessUpdate = new Promise<{ room: string }>((resolve) => witness.once('update_model', resolve));

  await revoke(token);
  const created = await api('POST', entityPath(APP, 'Note'), {
    json: { text: 'after revocation' },
    token: serviceTokenFor(APP),
  });
  expect(created.status).toBe(201);
  return { witness: await witnessUpdate, error: await victimError, reason: await victimGone, victimUpdates };
}

function expectCutOff(result: Awaited<ReturnType<typeof afterRevocation>>): void {
  expect(result.witness.room).toBe(ROOM);
  expect(result.error).toMatchObject({ code: 'invalid_token' });
  expect(result.reason).toBe('io server disconnect');
  expect(result.victimUpdates).toEqual([]);
}

it('cuts off a socket whose user changed the password', async () => {
  expectCutOff(
    await afterRevocation(async (token) => {
      const changed = await api('POST', `/apps/${APP}/auth/change-password`, {
        token,
        json: {
          user_id: SEEDED_ACCOUNTS.user.id,
          current_password: SEEDED_PASSWORD,
          new_password: 'a-brand-new-password',
        },
      });
      expect(changed.status).toBe(200);
    }),
  );
});

it('cuts off a socket whose user was deleted', async () => {
  expectCutOff(
    await afterRevocation(async () => {
      const deleted = await api('DELETE', entityPath(APP, 'User', `/${SEEDED_ACCOUNTS.user.id}`), {
        token: serviceTokenFor(APP),
      });
      expect(deleted.status).toBe(200);
    }),
  );
});

it('cuts off a socket whose token expired', async () => {
  expectCutOff(
    await afterRevocation(async () => {
      now += (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000;
    }),
  );
});

it('cuts off a socket whose login session was ended by logout', async () => {
  expectCutOff(
    await afterRevocation(async (token) => {
      const { sid } = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as {
        sid: string;
      };
      const out = await fetch(
        `${emulator.url}/api/apps/auth/logout?from_url=${encodeURIComponent('http://localhost:3000/')}`,
        {
          redirect: 'manual',
          headers: { Cookie: `base44_emulator_session=${sid}` },
        },
      );
      expect(out.status).toBe(303);
    }),
  );
});

it('drops only the room a demoted admin may no longer follow, and keeps the socket', async () => {
  const usersRoom = `entities:${APP}:User`;
  const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
  const socket = await connect(token);
  socket.emit('join', usersRoom);
  socket.emit('join', ROOM);
  for (let attempt = 0; attempt < 200 && ((await roomSize(usersRoom)) < 1 || (await roomSize()) < 1); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const updates: { room: string }[] = [];
  socket.on('update_model', (message: { room: string }) => updates.push(message));
  const refused = new Promise<{ code: string; room: string }>((resolve) => socket.once('error', resolve));
  const demoted = await api('PUT', entityPath(APP, 'User', `/${SEEDED_ACCOUNTS.admin.id}`), {
    token: serviceTokenFor(APP),
    json: { role: 'user' },
  });
  expect(demoted.status).toBe(200);
  expect(await refused).toMatchObject({ code: 'admin_required', room: usersRoom });
  const noteArrived = new Promise<{ room: string }>((resolve) => socket.once('update_model', resolve));
  await api('POST', entityPath(APP, 'Note'), { json: { text: 'still here' }, token: serviceTokenFor(APP) });
  expect((await noteArrived).room).toBe(ROOM);
  expect(socket.connected).toBe(true);
  expect(updates.map((update) => update.room)).toEqual([ROOM]);
});

describe('live queries (subscribe_query) are held to the same checks before every delivery', () => {
  const watchRoom = (entity: string, queryId: string) => `entities:${APP}:${entity}:watch:${queryId}`;

  /** Subscribes a live query and resolves once the server answered with its first result. */
  function subscribe(socket: Socket, entity: string, queryId: string): Promise<unknown> {
    const first = new Promise((resolve) => socket.once('subscribed', resolve));
    socket.emit('subscribe_query', { app_id: APP, entity_name: entity, query_id: queryId, options: {} });
    return first;
  }

  it('end with the socket once its token is revoked, and deliver nothing after', async () => {
    const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
    const victim = await connect(token);
    const witness = await connect();
    await Promise.all([subscribe(victim, 'Note', 'notes'), subscribe(witness, 'Note', 'notes')]);
    const victimUpdates: unknown[] = [];
    victim.on('update_model', (message: unknown) => victimUpdates.push(message));
    const victimError = new Promise<{ code: string; room: string }>((resolve) => victim.once('error', resolve));
    const victimGone = new Promise<string>((resolve) => victim.once('disconnect', resolve));
    const witnessUpdate = new Promise<{ room: string }>((resolve) => witness.once('update_model', resolve));

    const changed = await api('POST', `/apps/${APP}/auth/change-password`, {
      token,
      json: {
        user_id: SEEDED_ACCOUNTS.user.id,
        current_password: SEEDED_PASSWORD,
        new_password: 'a-brand-new-password',
      },
    });
    expect(changed.status).toBe(200);
    await api('POST', entityPath(APP, 'Note'), { json: { text: 'after revocation' }, token: serviceTokenFor(APP) });

    expect((await witnessUpdate).room).toBe(watchRoom('Note', 'notes'));
    expect(await victimError).toMatchObject({ code: 'invalid_token', room: watchRoom('Note', 'notes') });
    expect(await victimGone).toBe('io server disconnect');
    expect(victimUpdates).toEqual([]);
  });

  it('end only the query a demoted admin may no longer hold, and keep the socket and its other queries', async () => {
    const token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
    const socket = await connect(token);
    await Promise.all([subscribe(socket, 'User', 'users'), subscribe(socket, 'Note', 'notes')]);
    const updates: { room: string }[] = [];
    socket.on('update_model', (message: { room: string }) => updates.push(message));
    const refused = new Promise<{ code: string; room: string }>((resolve) => socket.once('error', resolve));

    const demoted = await api('PUT', entityPath(APP, 'User', `/${SEEDED_ACCOUNTS.admin.id}`), {
      token: serviceTokenFor(APP),
      json: { role: 'user' },
    });
    expect(demoted.status).toBe(200);
    expect(await refused).toEqual(
      expect.objectContaining({ code: 'admin_required', room: watchRoom('User', 'users') }),
    );
    const noteArrived = new Promise<{ room: string }>((resolve) => socket.once('update_model', resolve));
    await api('POST', entityPath(APP, 'Note'), { json: { text: 'still here' }, token: serviceTokenFor(APP) });
    expect((await noteArrived).room).toBe(watchRoom('Note', 'notes'));
    expect(socket.connected).toBe(true);
    expect(updates.map((update) => update.room)).toEqual([watchRoom('Note', 'notes')]);
  });
});
