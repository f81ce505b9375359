/**
 * Fault tests: the emulator is stopped while clients are subscribed, data is written while they are
 * away, and a new emulator starts on the same port with the same data folder. Clients reconnect
 * within the backoff bounds (docs/SPEC.md section 9: 1 s doubling to 5 s, jitter 0.5), rejoin every room that
 * still has listeners exactly once, and tell their subscribers so they can refetch what they missed.
 */
import type { AgentConversation, EntityChangeEvent } from '@/lib/sdk/core/types';
import { emulatorWithClients } from '@/tests/support/emulator-clients';

import { entityRoomOf, eventually, probe, sleep } from './harness';
import { roomHistory, serverCount, serverEvents } from './server-observer';

jest.mock('socket.io', () =>
  jest.requireActual<typeof import('./server-observer')>('./server-observer').recordingSocketIo(),
);

// The user's token is signed with a secret kept in the data folder, so it outlives restarts.
const suite = emulatorWithClients({ freshFor: 'test' });
const { clients } = suite;

type Change = EntityChangeEvent;
/** Slack for handshakes and timers on a loaded 2-core machine. */
const SLACK_MS = 750;
const latestServer = () => serverCount() - 1;
const firstConnectOn = (server: number) => serverEvents({ server, kind: 'connect' })[0]?.at;

it('reconnects after a restart, rejoins each live room once and no longer joins rooms left while away', async () => {
  const subscriber = clients.create(suite.platform.url, { token: suite.userToken });
  const conversation = await subscriber.agents.createConversation({ agent_name: 'helper' });
  const todos = probe<Change>((callback, hooks) => subscriber.entity('Todo').subscribe(callback, hooks));
  const notes = probe<Change>((callback, hooks) => subscriber.entity('Note').subscribe(callback, hooks));
  const chat = probe<AgentConversation>((callback, hooks) =>
    subscriber.agents.subscribeToConversation(conversation.id, callback, hooks),
  );
  const dropped = probe<Change>((callback, hooks) => subscriber.entity('Dropped').subscribe(callback, hooks));
  const liveRooms = [entityRoomOf('Todo'), entityRoomOf('Note'), `/agent-conversations/${conversation.id}`];
  const firstServer = latestServer();
  await eventually(() =>
    [...liveRooms, entityRoomOf('Dropped')].every((room) => roomHistory(room, firstServer).length === 1),
  );

  const port = await suite.platform.stop();
  await eventually(() => todos.disconnects.length === 1 && chat.disconnects.length === 1, 'the disconnect');
  // Unsubscribing while disconnected sends nothing and must not resurrect the room on reconnect.
  dropped.stop();
  const written = await suite.platform.whileAway(async (url) => {
    const writer = clients.create(url, { token: suite.userToken });
    const kept = await writer.entity('Todo').create({ title: 'written while the subscriber was away' });
    const removed = await writer.entity('Todo').create({ title: 'created and deleted while away' });
    await writer.entity('Todo').delete(removed.id);
    return kept;
  });
  const restartedAt = performance.now();
  await suite.platform.startOn(port);
  const secondServer = latestServer();

  await eventually(() => liveRooms.every((room) => roomHistory(room, secondServer).length === 1), 'the rejoins');
  const reconnectedAt = firstConnectOn(secondServer) ?? Number.NaN;
  expect(reconnectedAt - restartedAt).toBeLessThanOrEqual(5000 + SLACK_MS);
  await sleep(300);
  for (const room of liveRooms) expect(roomHistory(room, secondServer)).toEqual(['join']);
  expect(roomHistory(entityRoomOf('Dropped'), secondServer)).toEqual([]);
  expect(serverEvents({ server: secondServer, kind: 'connect' })).toHaveLength(1);

  // Every live subscription heard "disconnected", then "joined again": its cue to refetch.
  for (const subscription of [todos, notes, chat]) {
    expect(subscription.disconnects).toHaveLength(1);
    expect(subscription.joins).toHaveLength(2);
  }
  // Changes made while away were not pushed (nobody was connected)...
  expect(todos.values).toEqual([]);
  // ...but a refetch after the rejoin sees them, and new changes are pushed again.
  expect((await subscriber.entity('Todo').list()).map((record) => record.id)).toEqual([written.id]);
  const after = await subscriber.entity('Todo').update(written.id, { title: 'after the restart' });
  await subscriber.agents.addMessage(conversation.id, { role: 'user', content: 'still there?' });
  await eventually(() => todos.values.length === 1 && chat.values.length >= 1, 'live updates');
  expect(todos.values[0]).toMatchObject({ type: 'update', id: after.id, data: { title: 'after the restart' } });
  expect(chat.values[0]?.messages.at(0)).toMatchObject({ role: 'user', content: 'still there?' });
  expect([todos, notes, chat].flatMap((subscription) => subscription.errors)).toEqual([]);
});

it('makes the first reconnect attempt 0.5 to 1.5 s after the connection drops (1 s with jitter 0.5)', async () => {
  const subscriber = clients.create(suite.platform.url, { token: suite.userToken });
  const todos = probe<Change>((callback, hooks) => subscriber.entity('Todo').subscribe(callback, hooks));
  await eventually(() => roomHistory(entityRoomOf('Todo'), latestServer()).length === 1, 'the join');

  const port = await suite.platform.stop();
  await suite.platform.startOn(port);
  const secondServer = latestServer();
  await eventually(() => firstConnectOn(secondServer), 'the reconnect');

  const waited = (firstConnectOn(secondServer) ?? 0) - (todos.disconnects[0] ?? Number.NaN);
  expect(waited).toBeGreaterThanOrEqual(500);
  expect(waited).toBeLessThanOrEqual(1500 + SLACK_MS);
  await eventually(() => roomHistory(entityRoomOf('Todo'), secondServer).length === 1, 'the rejoin');
});

it('keeps retrying through a longer outage and is back within the 5 s maximum delay of the server returning', async () => {
  const subscriber = clients.create(suite.platform.url, { token: suite.userToken });
  const todos = probe<Change>((callback, hooks) => subscriber.entity('Todo').subscribe(callback, hooks));
  await eventually(() => roomHistory(entityRoomOf('Todo'), latestServer()).length === 1, 'the join');

  const port = await suite.platform.stop();
  // Attempts fail at about 1 s, 3 s and 7 s (doubling, capped at 5 s); come back in between.
  await sleep(4500);
  const restartedAt = performance.now();
  await suite.platform.startOn(port);
  const secondServer = latestServer();
  await eventually(() => firstConnectOn(secondServer), 'the reconnect', 5000 + SLACK_MS * 2);
  expect((firstConnectOn(secondServer) ?? Number.NaN) - restartedAt).toBeLessThanOrEqual(5000 + SLACK_MS);
  await eventually(() => todos.joins.length === 2, 'the rejoin');
  expect(todos.errors).toEqual([]);
});

it('comes back by itself after the server disconnects it, after the longest backoff delay, and rejoins once', async () => {
  const subscriber = clients.create(suite.platform.url, { token: suite.userToken });
  const todos = probe<Change>((callback, hooks) => subscriber.entity('Kicked').subscribe(callback, hooks));
  const room = entityRoomOf('Kicked');
  const server = latestServer();
  await eventually(() => roomHistory(room, server).length === 1, 'the join');

  const kick = await fetch(`${suite.platform.url}/api/_emulator/rooms/${encodeURIComponent(room)}/disconnect`, {
    method: 'POST',
  });
  expect(await kick.json()).toEqual({ room, disconnected: 1 });
  const kickedAt = performance.now();
  await eventually(() => todos.disconnects.length === 1, 'the disconnect');

  await eventually(
    () => roomHistory(room, server).filter((event) => event === 'join').length === 2,
    'the rejoin',
    5000 + 3 * SLACK_MS,
  );
  const rejoinedAfter = performance.now() - kickedAt;
  expect(rejoinedAfter).toBeGreaterThanOrEqual(5000 - SLACK_MS);
  const writer = clients.create(suite.platform.url, { token: suite.userToken });
  const created = await writer.entity('Kicked').create({ title: 'after the kick' });
  await eventually(() => todos.values.some((event) => event.id === created.id), 'delivery after the rejoin');
  expect(todos.errors).toEqual([]);
});
