/**
 * `createClient()`: the site's only way to reach the platform.
 */
import { createAgentsModule, type AgentsModule } from './agents';
import { createAppLogsModule, type AppLogsModule } from './app-logs';
import { createAuthModule, type AuthModule, type Session } from './auth';
import { createEntitiesModule, createEntityHandler, type EntitiesModule, type EntityHandler } from './entities';
import { invalidArgument, type PlatformError } from './errors';
import { createFunctionsModule, type FunctionsModule } from './functions';
import {
  createIntegrationEndpoint,
  createIntegrationsModule,
  type IntegrationEndpoint,
  type IntegrationsModule,
} from './integrations';
import { createPublicSettingsModule, type PublicSettingsModule } from './public-settings';
import { createLazyRealtime, type RealtimeSubscriptions } from './realtime-loader';
import { parseAbsoluteHttpUrl } from './redirects';
import { createServiceRoleClient, serviceTokenRequired, type ServiceRoleClient } from './service-role';
import { clearStoredToken, readStoredToken, storeToken } from './token-store';
import { createTransport, type FetchLike } from './transport';
import type { EntityFields, EntitySchemas } from './types';
import { assertPathSegment } from './validate';

export interface ClientOptions {
  /** Platform origin, e.g. "https://platform.example"; requests go to `{serverUrl}/api`. "" = this page's origin. */
  serverUrl: string;
  /** The app id, sent as `X-App-Id` and used in every path. */
  appId: string;
  /** User token. Omitted: the stored token (browser) is used. `null`: start signed out. */
  token?: string | null;
  /** Service token enabling {@link PlatformClient.asServiceRole}. Never use it in browser code. */
  serviceToken?: string;
  /** Where the login page lives (`{appBaseUrl}/login`). Default: `serverUrl`. */
  appBaseUrl?: string;
  /** Sent as `Base44-Functions-Version` with function calls. */
  functionsVersion?: string;
  /** Extra headers on every request (the platform headers take precedence). */
  headers?: Record<string, string>;
  /** A fetch implementation; default: the global fetch. */
  fetch?: FetchLike;
  /** Called with the PlatformError of every failed request (not for caller aborts). */
  onError?: (error: PlatformError) => void;
  /** Default timeout for every call in ms; default none. Each call may pass its own. */
  timeout?: number;
}

/** The client. `S` maps entity names to their field types for `entities.<Name>`. */
export interface PlatformClient<S extends EntitySchemas = Record<string, EntityFields>> {
  /** `entities.<Name>`: typed for the names in `S`. */
  entities: EntitiesModule<S>;
  /** A handler for any entity name (names unknown at compile time, or not in `S`). */
  entity<T extends object = EntityFields>(name: string): EntityHandler<T>;
  auth: AuthModule;
  /** `integrations.Core.<Endpoint>` and `integrations.<Package>.<Endpoint>`. */
  integrations: IntegrationsModule;
  /** One integration endpoint by names known only at run time. */
  integration(packageName: string, endpointName: string): IntegrationEndpoint;
  functions: FunctionsModule;
  agents: AgentsModule;
  appLogs: AppLogsModule;
  publicSettings: PublicSettingsModule;
  /** The service-role modules. Throws when the client has no service token. */
  readonly asServiceRole: ServiceRoleClient<S>;
  /** Uses `token` for later requests (and the real-time socket); stores it unless `persist` is false. */
  setToken(token: string, persist?: boolean): void;
  /** The current user token, or null. */
  getToken(): string | null;
  /** Closes the real-time socket. HTTP calls keep working. */
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

function createSession(initialToken: string | null, onChange: () => void): Session {
  let token = initialToken;
  return {
    getToken: () => token,
    setToken(next, persist = true) {
      if (typeof next !== 'string' || next.length === 0) throw invalidArgument('setToken needs a non-empty token');
      token = next;
      if (persist) storeToken(next);
      onChange();
    },
    clearToken() {
      token = null;
      clearStoredToken();
      onChange();
    },
  };
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
export function createClient<S extends EntitySchemas = Record<string, EntityFields>>(
  options: ClientOptions,
): PlatformClient<S> {
  if (typeof options?.serverUrl !== 'string') throw invalidArgument('serverUrl must be a string ("" for this origin)');
  const appId = assertPathSegment('appId', options.appId);
  const serverUrl = normaliseBaseUrl('serverUrl', options.serverUrl);
  const appBaseUrl = normaliseBaseUrl('appBaseUrl', options.appBaseUrl ?? serverUrl);
  const initialToken = options.token === undefined ? readStoredToken() : options.token || null;

  let realtimeConnection: RealtimeSubscriptions | undefined;
  const session = createSession(initialToken, () => realtimeConnection?.refreshToken());
  const realtime = () =>
    (realtimeConnection ??= createLazyRealtime({ serverUrl, appId, getToken: session.getToken }));
  // The service role subscribes on a socket of its own, authenticated with the service token: sharing
  // the user's socket (as the reference does) leaves a service-only client anonymous, which fails on
  // apps that require login and on conversation rooms.
  let serviceRealtimeConnection: RealtimeSubscriptions | undefined;
  const serviceRealtime = () =>
    (serviceRealtimeConnection ??= createLazyRealtime({ serverUrl, appId, getToken: () => options.serviceToken ?? null }));

  const transportConfig = {
    serverUrl,
    appId,
    headers: options.headers,
    fetch: options.fetch,
    onError: options.onError,
    timeout: options.timeout,
  };
  const transport = createTransport({
    ...transportConfig,
    authHeaders: (): Record<string, string> => {
      const token = session.getToken();
      return token ? { Authorization: `Bearer ${token}` } : {};
    },
  });

  const entityContext = { transport, appId, realtime };
  let serviceRole: ServiceRoleClient<S> | undefined;
  const serviceToken = options.serviceToken;

  return {
    entities: createEntitiesModule<S>(entityContext),
    entity: (name) => createEntityHandler(entityContext, name),
    auth: createAuthModule({ transport, appId, appBaseUrl, session }),
    integrations: createIntegrationsModule(transport, appId),
    integration: (packageName, endpointName) => createIntegrationEndpoint(transport, appId, packageName, endpointName),
    functions: createFunctionsModule(transport, appId, options.functionsVersion),
    agents: createAgentsModule({ transport, appId, serverUrl, getToken: session.getToken, realtime }),
    appLogs: createAppLogsModule(transport, appId),
    publicSettings: createPublicSettingsModule(transport, appId),
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
    setToken: (token, persist) => session.setToken(token, persist),
    getToken: session.getToken,
    cleanup() {
      realtimeConnection?.close();
      serviceRealtimeConnection?.close();
    },
  };
}
