/**
 * The shapes of `analytics`, apart from its code: the eager stand-in (analytics.ts) and the tracker
 * it loads (tracker.lazy.ts) both use them, and neither imports the other's code for it.
 */
import type { AuthModule } from '../auth/auth';
import type { Transport } from '../core/transport';

export type TrackEventProperties = Record<string, string | number | boolean | null | undefined>;

export interface TrackEventParams {
  eventName: string;
  properties?: TrackEventProperties;
}

export interface AnalyticsModule {
  /** Queues an event; sent in batches. Does nothing unless the site enabled analytics. */
  track(params: TrackEventParams): void;
  cleanup(): void;
}

export interface AnalyticsContext {
  transport: Transport;
  appId: string;
  auth: Pick<AuthModule, 'hasToken' | 'me'>;
  enabled: boolean;
}
