/**
 * Analytics, sent exactly as the reference client sends it, for sites that enabled it (with the
 * visitor's consent). Loaded only then. Events are queued and sent in batches of 30 at most once a
 * second to `POST /apps/{appId}/analytics/track/batch`; a hidden page flushes with sendBeacon.
 */
import { hasWindow } from '../../util';
import { apiPath } from '../core/validate';
import type { AnalyticsContext, AnalyticsModule, TrackEventParams, TrackEventProperties } from './analytics-types';

export const USER_HEARTBEAT_EVENT_NAME = '__user_heartbeat_event__';
export const ANALYTICS_INITIALIZATION_EVENT_NAME = '__initialization_event__';
export const ANALYTICS_SESSION_DURATION_EVENT_NAME = '__session_duration_event__';

const MAX_QUEUE = 1000;
const THROTTLE_MS = 1000;
const BATCH_SIZE = 30;
const HEARTBEAT_MS = 60_000;
const MAX_BEACON_LENGTH = 60_000;

interface QueuedEvent {
  eventName: string;
  properties?: TrackEventProperties;
  timestamp: string;
  pageUrl: string | null;
}

// One page, one queue and one "initialised" event, however many clients the page creates.
const queue: QueuedEvent[] = [];
let initialisationTracked = false;
let processing = false;

/** Sends a batch of events, with who sends them, as the reference does; failures are swallowed. */
function createBatchSender(
  { transport, appId, auth }: AnalyticsContext,
  persistVisitorId: () => string,
): {
  flush(events: QueuedEvent[], beacon?: boolean): Promise<void>;
} {
  const path = `${apiPath`/apps/${appId}/analytics/track`}/batch`;

  async function sessionContext(): Promise<{ user_id: string | null; session_id: string }> {
    const sessionId = persistVisitorId();
    if (!auth.hasToken()) return { user_id: null, session_id: sessionId };
    try {
      return { user_id: (await auth.me()).id, session_id: sessionId };
    } catch {
      return { user_id: null, session_id: sessionId };
    }
  }

  async function flush(events: QueuedEvent[], beacon = false): Promise<void> {
    if (events.length === 0) return;
    const context = await sessionContext();
    const body = {
      events: events.map((event) => ({
        event_name: event.eventName,
        properties: event.properties,
        timestamp: event.timestamp,
        page_url: event.pageUrl,
        ...context,
      })),
    };
    try {
      if (beacon && sendBeacon(body)) return;
      await transport.request({ method: 'POST', path, body });
    } catch {
      // Analytics never disturbs the page.
    }
  }

  function sendBeacon(body: unknown): boolean {
    const payload = JSON.stringify(body);
    if (typeof navigator === 'undefined' || !navigator.sendBeacon || payload.length > MAX_BEACON_LENGTH) return false;
    return navigator.sendBeacon(`${transport.baseUrl}${path}`, new Blob([payload], { type: 'application/json' }));
  }

  return { flush };
}

/** Starts tracking; `persistVisitorId` stores and returns the visitor id (consent is given). */
export function startAnalytics(context: AnalyticsContext, persistVisitorId: () => string): AnalyticsModule {
  const { flush } = createBatchSender(context, persistVisitorId);
  let sessionStart: string | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  async function process(): Promise<void> {
    if (processing) return;
    processing = true;
    while (processing && queue.length > 0) {
      await flush(queue.splice(0, BATCH_SIZE));
      await new Promise((resolve) => setTimeout(resolve, THROTTLE_MS));
    }
    processing = false;
  }

  function track({ eventName, properties }: TrackEventParams): void {
    if (queue.length >= MAX_QUEUE) return;
    queue.push({
      eventName,
      ...(properties === undefined ? {} : { properties }),
      timestamp: new Date().toISOString(),
      pageUrl: hasWindow() ? (window.location?.pathname ?? null) : null,
    });
    void process();
  }

  function startHeartbeat(): void {
    if (!hasWindow() || heartbeat !== undefined) return;
    heartbeat = setInterval(() => track({ eventName: USER_HEARTBEAT_EVENT_NAME }), HEARTBEAT_MS);
  }

  function stopHeartbeat(): void {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }

  function onVisibilityChange(): void {
    if (document.visibilityState === 'hidden') {
      processing = false;
      stopHeartbeat();
      if (sessionStart !== null) {
        track({
          eventName: ANALYTICS_SESSION_DURATION_EVENT_NAME,
          properties: { sessionDuration: Date.now() - Date.parse(sessionStart) },
        });
        sessionStart = null;
      }
      void flush(queue.splice(0), true);
    } else if (document.visibilityState === 'visible') {
      void process();
      startHeartbeat();
      sessionStart ??= new Date().toISOString();
    }
  }

  void process();
  startHeartbeat();
  if (hasWindow() && !initialisationTracked) {
    initialisationTracked = true;
    track({ eventName: ANALYTICS_INITIALIZATION_EVENT_NAME, properties: { referrer: document?.referrer } });
  }
  if (hasWindow()) window.addEventListener('visibilitychange', onVisibilityChange);

  return {
    track,
    cleanup() {
      processing = false;
      stopHeartbeat();
      if (hasWindow()) window.removeEventListener('visibilitychange', onVisibilityChange);
    },
  };
}
