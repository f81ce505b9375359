/** The socket itself: token changes while subscribed, and shared rooms left only by the last listener. */
import { entity, rows } from './helpers';

const ROOM = 'entities:app-1:Todo';

export const realtimeRows = rows(
  {
    name: 'realtime: setToken while subscribed reconnects as the user and rejoins',
    covers: ['setToken', 'entities.*.subscribe'],
    config: { token: 'first-token' },
    async run(client, tools) {
      const events: unknown[] = [];
      const stop = entity(client).subscribe((event) => events.push(event));
      await tools.waitForSocket('join', ROOM);
      client.setToken('second-token');
      await tools.until(() => tools.platform.handshakes.length === 2, 'the second handshake');
      await tools.until(
        () => tools.platform.socketEvents.some((entry) => entry.connection === 1 && entry.event === 'join'),
        'the rejoin',
      );
      await tools.push(ROOM, { type: 'create', id: 'r5', data: { id: 'r5' }, timestamp: 't' });
      await tools.until(() => events.length === 1, 'the event on the new socket');
      stop();
      await tools.until(
        () => tools.platform.socketEvents.some((entry) => entry.connection === 1 && entry.event === 'leave'),
        'the leave',
      );
      return events;
    },
  },
  {
    name: 'realtime: a room shared by two listeners is left only after the last one stops',
    covers: ['entities.*.subscribe'],
    config: { token: 'user-token' },
    async run(client, tools) {
      const first: unknown[] = [];
      const second: unknown[] = [];
      const stopFirst = entity(client).subscribe((event) => first.push(event));
      const stopSecond = entity(client).subscribe((event) => second.push(event));
      await tools.waitForSocket('join', ROOM);
      stopFirst();
      stopFirst();
      await tools.push(ROOM, { type: 'update', id: 'r1', data: { id: 'r1', n: 2 }, timestamp: 't' });
      await tools.until(() => second.length === 1, 'the event for the remaining listener');
      const leftEarly = tools.platform.socketEvents.some((entry) => entry.event === 'leave');
      stopSecond();
      await tools.waitForSocket('leave', ROOM);
      return { first, second, leftEarly };
    },
  },
);
