/**
 * `analytics`: off unless the site enables it (with the visitor's consent); then its tracker
 * (tracker.lazy.ts) loads on its own, and events tracked meanwhile wait for it.
 */
import { persistVisitorId } from '../core/visitor-id';
import type { AnalyticsContext, AnalyticsModule, TrackEventParams } from './analytics-types';

/**
 * Analytics as the reference sends it, but only when `enabled` (the site has the visitor's consent).
 * Disabled, it sends nothing and stores nothing.
 */
export function createAnalyticsModule(context: AnalyticsContext): AnalyticsModule {
  if (!context.enabled) return { track: () => undefined, cleanup: () => undefined };
  let stopped = false;
  const pending: TrackEventParams[] = [];
  let live: AnalyticsModule | undefined;
  const loading = import('./tracker.lazy').then((module) => {
    // Handed over rather than imported by the tracker: the visitor id then stays in the first chunk
    // alone instead of a chunk of its own that every page would fetch.
    const started = module.startAnalytics(context, persistVisitorId);
    live = started;
    if (stopped) started.cleanup();
    for (const event of pending.splice(0)) started.track(event);
  });
  loading.catch((error: unknown) => console.error('[platform-sdk] analytics could not load:', error));
  return {
    track: (params) => (live ? live.track(params) : void pending.push(params)),
    cleanup() {
      stopped = true;
      live?.cleanup();
    },
  };
}
