/**
 * `createClient()`: the site's only way to reach the platform. Option names, defaults and the client's
 * shape follow the reference client (`@base44/sdk`), so code written for it runs unchanged; the
 * differences are listed in docs/SDK-DEVIATIONS.md.
 */
import { hasWindow } from '../../util';
import type { ActorsModule } from '../actors/actor-types';
import { createActorsModule } from '../actors/actors';
import type { AgentsModule } from '../agents/agents';
import type { AiGatewayModule } from '../ai-gateway/ai-gateway';
import { createAnalyticsModule } from '../analytics/analytics';
import type { AnalyticsModule } from '../analytics/analytics-types';
import type { AppLogsModule } from '../app-logs/app-logs';
import { checkSession, createAuthModule, type AuthModule } from '../auth/auth';
import type { UserConnectorsModule } from '../connectors/connectors.lazy';
import { invalidArgument, type PlatformError } from '../core/errors';
import { lazyMethods } from '../core/lazy-methods';
import { parseAbsoluteHttpUrl } from '../core/redirects';
import { createTransport, type FetchLike } from '../core/transport';
import type { DefaultEntitySchemas, EntityFields, EntitySchemas, PublicSettingsResponse } from '../core/types';
import { assertPathSegment } from '../core/validate';
import { visitorId } from '../core/visitor-id';
import type { EntitiesModule, EntityHandler } from '../entities/entities';
import type { FunctionsModule } from '../functions/functions';
import type { IntegrationEndpoint, IntegrationsModule } from '../integrations/integration-types';
import { createIntegrationEndpoint } from '../integrations/integrations';
import { createPublicSettingsModule, type PublicSettingsModule } from '../public-settings/public-settings';
import { createLazyRealtime, type RealtimeSubscriptions } from '../realtime/realtime-loader';
import { createSession } from '../token/session';
import { startupToken, tokenStore } from '../token/token-store';
import type { FetchWithAuthInit } from './fetch-with-auth.lazy';
import { createServiceRoleClient, serviceTokenRequired, type ServiceRoleClient } from './service-role';
import { createSharedModules } from './shared-modules';

/** The reference's default platform. */
export const DEFAULT_SERVER_URL = 'https://base44.app';

export interface ClientOptions {
  /** Platform origin; requests go to `{serverUrl}/api`. Default "https://base44.app"; "" = this page's origin. */
  serverUrl?: string;
  /** The app id, sent as `X-App-Id` and used in every path. */
  appId: string;
  /** User token. Omitted: `?access_token=` in the address, else the stored token (browser). `null`: signed out. */
  token?: string | null;
  /** Service token enabling {@link PlatformClient.asServiceRole}. Never use it in browser code. */
  serviceToken?: string;
  /** Where the login and logout pages live. Default: this page's origin. */
  appBaseUrl?: string;
  /** In a browser: check the session right after creation and send a signed-out visitor to login. */
  requiresAuth?: boolean;
  /** Usage analytics. Off unless enabled: the site may only track visitors who agreed. */
  analytics?: { enabled: boolean };
  /** Sent as `Base44-Functions-Version` with function calls. */
  functionsVersion?: string;
  /** Extra headers on every request (the platform headers take precedence). */
  headers?: Record<string, string>;
  /** A fetch implementation; default: the global fetch. */
  fetch?: FetchLike;
  /** Called with the PlatformError of every failed request (not for caller aborts). */
  onError?: (error: PlatformError) => void;
  /** The reference's place for `onError`; either works. */
  options?: { onError?: (error: PlatformError) => void };
  /** Default timeout for every call in ms; default none. Each call may pass its own. */
  timeout?: number;
}

/** The client. `S` maps entity names to their field types for `entities.<Name>`. */
export interface PlatformClient<S extends EntitySchemas = DefaultEntitySchemas> {
  /** `entities.<Name>`: typed for the names in `S`. */
  entities: EntitiesModule<S>;
  /** A handler for any entity name (names unknown at compile time, or not in `S`). */
  entity<T extends object = EntityFields>(name: string): EntityHandler<T>;
  auth: AuthModule;
  /** `integrations.Core.<Endpoint>`, `integrations.custom.call()` and `integrations.<Package>.<Endpoint>`. */
  integrations: IntegrationsModule;
  /** One integration endpoint by names known only at run time. */
  integration(packageName: string, endpointName: string): IntegrationEndpoint;
  /** The app user's own connector connections. */
  connectors: UserConnectorsModule;
  functions: FunctionsModule;
  agents: AgentsModule;
  aiGateway: AiGatewayModule;
  appLogs: AppLogsModule;
  /** The app's own configuration (reference name). */
  app: { getPublicSettings(): Promise<PublicSettingsResponse> };
  users: { inviteUser(userEmail: string, role: 'user' | 'admin'): Promise<unknown> };
  analytics: AnalyticsModule;
  /** `actors.<Name>(instanceId).connect()`: stateful actor rooms over a WebSocket. */
  actors: ActorsModule;
  publicSettings: PublicSettingsModule;
  /** A fetch to this app's own origin carrying the client's credentials (see fetch-with-auth.lazy.ts). */
  fetchWithAuth(path: string, init?: FetchWithAuthInit): Promise<Response>;
  /** The service-role modules. Throws when the client has no service token. */
  readonly asServiceRole: ServiceRoleClient<S>;
  /** Uses `token` for later requests (and the real-time socket); stores it unless `persist` is false. */
  setToken(token: string, persist?: boolean): void;
  /** The current user token, or null. */
  getToken(): string | null;
  getConfig(): { serverUrl: string; appId: string; requiresAuth: boolean };
  /** Closes the real-time socket and stops analytics. HTTP calls keep working. */
  cleanup(): void;
}

function normaliseBaseUrl(label: string, value: string): string {
  if (value === '') return '';
  const url = parseAbsoluteHttpUrl(value);
  if (!url || url.search || url.hash) {
    throw invalidArgument(`${label} must be an absolute http(s) URL without credentials, query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * Creates a platform client.
 *
 * @example
 * ```ts
 * const client = createClient<{ Todo: { title: string; done: boolean } }>({
 *   serverUrl: 'https://platform.example',
 *   appId: 'coming-soon',
 * });
 * const open = await client.entities.Todo.filter({ done: false }, '-created_date', 20);
 * ```
 */
export function createClient<S extends EntitySchemas = DefaultEntitySchemas>(
  options: ClientOptions,
): PlatformClient<S> {
  const serverUrlOption = options?.serverUrl ?? DEFAULT_SERVER_URL;
  if (typeof serverUrlOption !== 'string') throw invalidArgument('serverUrl must be a string ("" for this origin)');
  const appId = assertPathSegment('appId', options.appId);
  const serverUrl = normaliseBaseUrl('serverUrl', serverUrlOption);
  const appBaseUrl = normaliseBaseUrl('appBaseUrl', options.appBaseUrl ?? '');
  const initialToken = options.token === undefined ? startupToken() : options.token || null;
  const onError = options.onError ?? options.options?.onError;
  // As the reference does in a browser: the token in use is the stored one (both keys kept in step).
  if (initialToken) tokenStore.set(initialToken);

  let realtimeConnection: RealtimeSubscriptions | undefined;
  const session = createSession(initialToken, () => realtimeConnection?.refreshToken());
  const realtime = () =>
    (realtimeConnection ??= createLazyRealtime({
      serverUrl,
      appId,
      getToken: session.getToken,
      getVisitorId: visitorId,
    }));
  // The service role subscribes on a socket of its own, authenticated with the service token: sharing
  // the user's socket (as the reference does) leaves a service-only client anonymous, which fails on
  // apps that require login and on conversation rooms.
  let serviceRealtimeConnection: RealtimeSubscriptions | undefined;
  const serviceRealtime = () =>
    (serviceRealtimeConnection ??= createLazyRealtime({
      serverUrl,
      appId,
      getToken: () => options.serviceToken ?? null,
    }));

  const transportConfig = {
    serverUrl,
    appId,
    headers: options.headers,
    fetch: options.fetch,
    onError,
    timeout: options.timeout,
  };
  const bearer = () => {
    const token = session.getToken();
    return token ? `Bearer ${token}` : null;
  };
  const transport = createTransport({
    ...transportConfig,
    authHeaders: (): Record<string, string> => {
      const authorization = bearer();
      return authorization ? { Authorization: authorization } : {};
    },
    // A token the server rejected is dead: drop it at once, so no later request carries it.
    onUnauthorized: session.rejected,
  });

  let serviceRole: ServiceRoleClient<S> | undefined;
  const serviceToken = options.serviceToken;
  const auth = createAuthModule({ transport, appId, appBaseUrl, session });
  const publicSettings = createPublicSettingsModule({ transport, appId });
  const analytics = createAnalyticsModule({ transport, appId, auth, enabled: options.analytics?.enabled === true });
  const requiresAuth = options.requiresAuth === true;
  const actors = createActorsModule({
    appId,
    // The proxy fallback needs an absolute host: "" (this origin) means the page's.
    host: serverUrl || (hasWindow() ? window.location.origin : ''),
    functionsVersion: options.functionsVersion,
    getToken: session.getToken,
    // No onError: an older platform answers every mint with 409 before the proxy fallback.
    mintTransport: createTransport({ ...transportConfig, onError: undefined, authHeaders: () => ({}) }),
  });

  if (requiresAuth && hasWindow()) {
    // After creation, like the reference, so the caller can finish setting up first.
    setTimeout(() => {
      checkSession(() => auth.me()).then(
        (signedIn) => signedIn || auth.redirectToLogin(window.location.href),
        (error: unknown) => console.error('[platform-sdk] the session check failed:', error),
      );
    }, 0);
  }

  return {
    ...createSharedModules<S>({
      transport,
      appId,
      serverUrl,
      fetch: options.fetch,
      functionsVersion: options.functionsVersion,
      realtime,
      functionsAuthorization: bearer,
      gatewayToken: session.getToken,
      userToken: session.getToken,
    }),
    auth,
    integration: (packageName, endpointName) =>
      createIntegrationEndpoint({ transport, appId }, packageName, endpointName),
    connectors: lazyMethods(
      async () => (await import('../connectors/connectors.lazy')).createUserConnectorsModule({ transport, appId }),
      ['connectAppUser', 'disconnectAppUser'],
    ),
    app: { getPublicSettings: () => publicSettings.get() },
    users: lazyMethods(
      async () => (await import('../users/users.lazy')).createUsersModule({ transport, appId }),
      ['inviteUser'],
    ),
    analytics,
    actors: actors.module,
    publicSettings,
    fetchWithAuth: async (path, init) =>
      (await import('./fetch-with-auth.lazy')).fetchWithAuth(
        {
          appId,
          serverUrl,
          functionsVersion: options.functionsVersion,
          platformHeaders: options.headers,
          userToken: session.getToken,
          serviceToken,
        },
        path,
        init,
      ),
    get asServiceRole() {
      if (!serviceToken) throw serviceTokenRequired();
      serviceRole ??= createServiceRoleClient<S>({
        transportConfig,
        serviceToken,
        appId,
        serverUrl,
        functionsVersion: options.functionsVersion,
        getUserToken: session.getToken,
        realtime: serviceRealtime,
      });
      return serviceRole;
    },
    setToken: (token, persist) => auth.setToken(token, persist),
    getToken: session.getToken,
    getConfig: () => ({ serverUrl, appId, requiresAuth }),
    cleanup() {
      analytics.cleanup();
      actors.closeAll();
      realtimeConnection?.close();
      serviceRealtimeConnection?.close();
    },
  };
}
