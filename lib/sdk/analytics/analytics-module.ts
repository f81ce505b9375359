/**
 * Small modules of the reference surface that need no request code up front: the AI gateway's
 * connection details, and analytics (off unless the site enables it; its code then loads lazily).
 */
import type { AuthModule } from '../auth/auth';
import { invalidArgument } from '../core/errors';
import type { Transport } from '../core/transport';
import { apiPath } from '../core/validate';

export interface AiGatewayConnection {
  /** An OpenAI-compatible base URL for this app. */
  baseURL: string;
  /** The user token to send as the API key ("" when signed out). */
  token: string;
}

export interface AiGatewayModule {
  connection(options?: { provider?: 'openai' | 'typesafe' }): AiGatewayConnection;
}

interface AiGatewayContext {
  serverUrl: string;
  appId: string;
  getToken: () => string | null;
}

export function createAiGatewayModule({ serverUrl, appId, getToken }: AiGatewayContext): AiGatewayModule {
  return {
    connection({ provider = 'openai' } = {}) {
      if (provider !== 'openai' && provider !== 'typesafe')
        throw invalidArgument(`Unsupported AI Gateway provider: ${String(provider)}`);
      return { baseURL: `${serverUrl}/api${apiPath`/apps/${appId}/ai/${provider}`}/v1`, token: getToken() ?? '' };
    },
  };
}

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
    const started = module.startAnalytics(context);
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
