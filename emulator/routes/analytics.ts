import { checkAppHeader, requireApp, resolveCaller } from '../auth/caller';
import { DomainError, invalidInput } from '../core/errors';
import { checkStoredJson } from '../core/json-guard';
import { readJsonObject } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { isJsonObject } from '../util/json-object';

/**
 * `POST /api/apps/{appId}/analytics/track/batch` `{ events: [...] }`, what @base44/sdk's analytics
 * module sends (by fetch, or by sendBeacon when a page unloads). The emulator keeps the most recent
 * events in memory so a developer can see what a page would report; nothing leaves the machine.
 * Events are write-only, so the app's access gate does not apply, but a bad token is still a 401.
 * What is kept is bounded by count and by bytes per app: the oldest events roll off, and a batch
 * larger than the whole budget is a 413 that keeps none of its events.
 */

const MAX_EVENTS_PER_BATCH = 1000;
export const MAX_KEPT_PER_APP = 10_000;
export const MAX_KEPT_BYTES_PER_APP = 8 * 1024 * 1024;

interface KeptEvents {
  events: { event: TrackedEvent; bytes: number }[];
  bytes: number;
}

export interface TrackedEvent {
  event_name: string;
  properties?: Record<string, unknown>;
  timestamp?: string;
  page_url?: string | null;
  user_id?: string | null;
  session_id?: string | null;
  received_at: string;
}

function parseEvent(value: unknown, index: number, receivedAt: string): TrackedEvent {
  if (!isJsonObject(value)) throw invalidInput(`events[${index}] must be an object`, 'invalid_event');
  const { event_name: name, properties, timestamp, page_url: pageUrl, user_id: userId, session_id: sessionId } = value;
  if (typeof name !== 'string' || name === '' || name.length > 200) {
    throw invalidInput(`events[${index}].event_name must be a string of 1 to 200 characters`, 'invalid_event');
  }
  if (properties !== undefined && properties !== null && !isJsonObject(properties)) {
    throw invalidInput(`events[${index}].properties must be an object`, 'invalid_event');
  }
  const optionalText = (field: string, text: unknown): string | null | undefined => {
    if (text === undefined || text === null || typeof text === 'string') return text;
    throw invalidInput(`events[${index}].${field} must be a string`, 'invalid_event');
  };
  const event: TrackedEvent = {
    event_name: name,
    ...(isJsonObject(properties) ? { properties } : {}),
    ...(optionalText('timestamp', timestamp) ? { timestamp: timestamp as string } : {}),
    page_url: optionalText('page_url', pageUrl) ?? null,
    user_id: optionalText('user_id', userId) ?? null,
    session_id: optionalText('session_id', sessionId) ?? null,
    received_at: receivedAt,
  };
  // Same limits as a record: a value too deep to serialise would break the helper that reads events back.
  checkStoredJson(event, `events[${index}]`);
  return event;
}

function keep(kept: KeptEvents, events: readonly TrackedEvent[]): void {
  const sized = events.map((event) => ({ event, bytes: Buffer.byteLength(JSON.stringify(event)) }));
  const batchBytes = sized.reduce((sum, entry) => sum + entry.bytes, 0);
  if (batchBytes > MAX_KEPT_BYTES_PER_APP) {
    throw new DomainError(
      'too_large',
      'analytics_batch_too_large',
      `The batch is ${batchBytes} bytes as JSON; at most ${MAX_KEPT_BYTES_PER_APP} bytes of events are kept per app`,
      { extraData: { limit_bytes: MAX_KEPT_BYTES_PER_APP } },
    );
  }
  kept.events.push(...sized);
  kept.bytes += batchBytes;
  let drop = 0;
  let bytes = kept.bytes;
  while (kept.events.length - drop > MAX_KEPT_PER_APP || bytes > MAX_KEPT_BYTES_PER_APP) {
    bytes -= (kept.events[drop] as { bytes: number }).bytes;
    drop += 1;
  }
  kept.events.splice(0, drop);
  kept.bytes = bytes;
}

export function registerAnalyticsRoutes(router: Router, context: EmulatorContext): void {
  const kept = new Map<string, KeptEvents>();

  router.add('POST', '/api/apps/:appId/analytics/track/batch', async (request) => {
    const app = requireApp(context, request.params.appId as string);
    checkAppHeader(request.headers, app.id);
    resolveCaller(context, app, request.headers);
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    if (!Array.isArray(body.events) || body.events.length > MAX_EVENTS_PER_BATCH) {
      throw invalidInput(`events must be a list of at most ${MAX_EVENTS_PER_BATCH} events`, 'invalid_events');
    }
    const receivedAt = context.nowIso();
    const events = body.events.map((event, index) => parseEvent(event, index, receivedAt));
    const appEvents = kept.get(app.id) ?? { events: [], bytes: 0 };
    keep(appEvents, events);
    kept.set(app.id, appEvents);
    return jsonReply(200, { success: true, accepted: events.length });
  });

  router.add('GET', '/api/_emulator/apps/:appId/analytics', (request) => {
    const app = requireApp(context, request.params.appId as string);
    return jsonReply(
      200,
      (kept.get(app.id)?.events ?? []).map((entry) => entry.event),
    );
  });
}
