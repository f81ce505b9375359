import { requireApp } from '../auth/caller';
import { invalidInput } from '../core/errors';
import { readJsonObject } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';

/**
 * Helpers under `/api/_emulator/` for developers and tests: health, the e-mail outbox, stored page
 * visits, and raw socket emits and server-side disconnects for fault-testing clients. They exist only in the emulator and,
 * like the Firebase and Supabase emulators' admin endpoints, are meant for a local port.
 */

const RESERVED_EVENTS = new Set([
  'connect',
  'connect_error',
  'disconnect',
  'disconnecting',
  'newListener',
  'removeListener',
]);

export function registerEmulatorToolRoutes(router: Router, context: EmulatorContext): void {
  router.add('GET', '/api/_emulator/health', () =>
    jsonReply(200, { ok: true, apps: [...context.apps.values()].map((app) => ({ id: app.id, access: app.access })) }),
  );

  router.add('GET', '/api/_emulator/outbox', (request) => {
    const to = request.url.searchParams.get('to')?.toLowerCase();
    const appId = request.url.searchParams.get('app_id');
    const emails = context.store
      .mails()
      .filter((email) => (to === undefined || email.to === to) && (appId === null || email.app_id === appId));
    return jsonReply(200, emails);
  });

  router.add('DELETE', '/api/_emulator/outbox', async () => {
    const cleared = context.store.mails().length;
    await context.store.write((change) => change.clearOutbox());
    return jsonReply(200, { cleared });
  });

  router.add('GET', '/api/_emulator/apps/:appId/page-visits', (request) => {
    const app = requireApp(context, request.params.appId as string);
    return jsonReply(200, context.store.pageVisits(app.id));
  });

  router.add('POST', '/api/_emulator/rooms/:room/emit', async (request) => {
    const room = request.params.room as string;
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    const event = body.event;
    if (typeof event !== 'string' || event === '' || event.length > 100) {
      throw invalidInput('event must be a non-empty string of at most 100 characters', 'invalid_event');
    }
    if (RESERVED_EVENTS.has(event))
      throw invalidInput(`"${event}" is reserved by socket.io and cannot be emitted`, 'reserved_event');
    if (!('payload' in body)) throw invalidInput('payload is required (it may be null)', 'missing_payload');
    const delivered = context.realtime.emitRaw(room, event, body.payload);
    return jsonReply(200, { room, event, delivered });
  });

  // The server's own disconnect, which socket.io clients do not recover from by themselves.
  router.add('POST', '/api/_emulator/rooms/:room/disconnect', (request) => {
    const room = request.params.room as string;
    return jsonReply(200, { room, disconnected: context.realtime.disconnectRoom(room) });
  });

  // A dropped connection (as when the network fails), which socket.io clients recover from themselves.
  router.add('POST', '/api/_emulator/rooms/:room/drop', (request) => {
    const room = request.params.room as string;
    return jsonReply(200, { room, dropped: context.realtime.dropRoom(room) });
  });
}
