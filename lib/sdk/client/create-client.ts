/**
 * `createClient()`: the site's only way to reach the platform. Option names, defaults and the client's
 * shape (client-types.ts) follow the reference client (`@base44/sdk`), so code written for it runs
 * unchanged; the differences are listed in docs/SDK-DEVIATIONS.md.
 */
import { hasWindow } from '../../util';
import { createActorsModule } from '../actors/actors';
import { createAnalyticsModule } from '../analytics/analytics';
import { checkSession, createAuthModule, type AuthModule } from '../auth/auth';
import { invalidArgument } from '../core/errors';
import { lazyMethods } from '../core/lazy-methods';
import { parseAbsoluteHttpUrl } from '../core/redirects';
import { createTransport, type Transport, type TransportConfig } from '../core/transport';
import type { DefaultEntitySchemas, EntitySchemas } from '../core/types';
import { assertPathSegment } from '../core/validate';
import { visitorId } from '../core/visitor-id';
import { createIntegrationEndpoint } from '../integrations/integrations';
import { createPublicSettingsModule } from '../public-settings/public-settings';
import { createLazyRealtime, type RealtimeSubscriptions } from '../realtime/realtime-loader';
import { createSession, type Session } from '../token/session';
import { startupToken, tokenStore } from '../token/token-store';
import { DEFAULT_SERVER_URL, type ClientOptions, type PlatformClient } from './client-types';
import { createRoleModules } from './role-modules';
import { createServiceRoleClient, serviceTokenRequired, type ServiceRoleClient } from './service-role';

export { DEFAULT_SERVER_URL, type ClientOptions, type PlatformClient } from './client-types';

function normaliseBaseUrl(label: string, value: string): string {
  if (value === '') return '';
  const url = parseAbsoluteHttpUrl(value);
  if (!url || url.search || url.hash) {
    throw invalidArgument(`${label} must be an absolute http(s) URL without credentials, query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The options every request needs, checked and normalised (the platform's origin and the app id);
 * throws INVALID_ARGUMENT before anything is created.
 */
function transportConfigOf(options: ClientOptions): Omit<TransportConfig, 'authHeaders'> {
  const serverUrl = options?.serverUrl ?? DEFAULT_SERVER_URL;
  if (typeof serverUrl !== 'string') throw invalidArgument('serverUrl must be a string ("" for this origin)');
  return {
    appId: assertPathSegment('appId', options.appId),
    serverUrl: normaliseBaseUrl('serverUrl', serverUrl),
    headers: options.headers,
    fetch: options.fetch,
    onError: options.onError ?? options.options?.onError,
    timeout: options.timeout,
  };
}

/** The user's HTTP pipeline: the session's token in `Authorization`, dropped on a 401. */
function createUserTransport(config: Omit<TransportConfig, 'authHeaders'>, session: Session): Transport {
  return createTransport({
    ...config,
    authHeaders: (): Record<string, string> => {
      const token = session.getToken();
      return token ? { Authorization: `Bearer ${token}` } : {};
    },
    // A token the server rejected is dead: drop it at once, so no later request carries it.
    onUnauthorized: session.rejected,
  });
}

/** In a browser, after creation (like the reference, so the caller can finish setting up first): sign-in if signed out. */
function scheduleSessionCheck(auth: AuthModule): void {
  if (!hasWindow()) return;
  setTimeout(() => {
    checkSession(() => auth.me()).then(
      (signedIn) => signedIn || auth.redirectToLogin(window.location.href),
      (error: unknown) => console.error('[platform-sdk] the session check failed:', error),
    );
  }, 0);
}

/** The calls whose code loads on first use: connectors, users and fetchWithAuth. */
function lazyClientCalls(
  transport: Transport,
  { appId, serverUrl }: Omit<TransportConfig, 'authHeaders'>,
  options: ClientOptions,
  session: Session,
): Pick<PlatformClient, 'connectors' | 'users' | 'fetchWithAuth'> {
  return {
    connectors: lazyMethods(
      async () => (await import('../connectors/connectors.lazy')).createUserConnectorsModule({ transport, appId }),
      ['connectAppUser', 'disconnectAppUser'],
    ),
    users: lazyMethods(
      async () => (await import('../users/users.lazy')).createUsersModule({ transport, appId }),
      ['inviteUser'],
    ),
    fetchWithAuth: async (path, init) =>
      (await import('./fetch-with-auth.lazy')).fetchWithAuth(
        {
          appId,
          serverUrl,
          functionsVersion: options.functionsVersion,
          platformHeaders: options.headers,
          userToken: session.getToken,
          serviceToken: options.serviceToken,
        },
        path,
        init,
      ),
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
export function createClient<S extends EntitySchemas = DefaultEntitySchemas>(
  options: ClientOptions,
): PlatformClient<S> {
  const transportConfig = transportConfigOf(options);
  const { appId, serverUrl } = transportConfig;
  const appBaseUrl = normaliseBaseUrl('appBaseUrl', options.appBaseUrl ?? '');
  const requiresAuth = options.requiresAuth === true;
  let userRealtime: RealtimeSubscriptions | undefined;
  // A token given here is stored, as the reference stores it in a browser. Without one, the client
  // starts with the startup token (the address bar's, else the stored one), already in the store.
  const token = options.token === undefined ? startupToken() : options.token || null;
  if (options.token) tokenStore.set(options.token);
  const session = createSession(token, () => userRealtime?.refreshToken());
  const realtime = () =>
    (userRealtime ??= createLazyRealtime({ serverUrl, appId, getToken: session.getToken, getVisitorId: visitorId }));
  // The service role subscribes on a socket of its own, authenticated with the service token: sharing
  // the user's socket (as the reference does) leaves a service-only client anonymous, which fails on
  // apps that require login and on conversation rooms.
  let serviceRealtime: RealtimeSubscriptions | undefined;
  const serviceToken = options.serviceToken;
  const serviceRealtimeOf = () =>
    (serviceRealtime ??= createLazyRealtime({ serverUrl, appId, getToken: () => serviceToken ?? null }));
  const transport = createUserTransport(transportConfig, session);
  const auth = createAuthModule({ transport, appId, appBaseUrl, session });
  const publicSettings = createPublicSettingsModule({ transport, appId });
  const analytics = createAnalyticsModule({ transport, appId, auth, enabled: options.analytics?.enabled === true });
  const actors = createActorsModule({
    appId,
    // The proxy fallback needs an absolute host: "" (this origin) means the page's.
    host: serverUrl || (hasWindow() ? window.location.origin : ''),
    functionsVersion: options.functionsVersion,
    getToken: session.getToken,
    // No onError: an older platform answers every mint with 409 before the proxy fallback.
    mintTransport: createTransport({ ...transportConfig, onError: undefined, authHeaders: () => ({}) }),
  });
  if (requiresAuth) scheduleSessionCheck(auth);

  let serviceRole: ServiceRoleClient<S> | undefined;
  return {
    ...createRoleModules<S>({
      transport,
      appId,
      serverUrl,
      fetch: options.fetch,
      functionsVersion: options.functionsVersion,
      realtime,
      functionsAuthorization: () => {
        const token = session.getToken();
        return token ? `Bearer ${token}` : null;
      },
      gatewayToken: session.getToken,
      userToken: session.getToken,
    }),
    ...lazyClientCalls(transport, transportConfig, options, session),
    auth,
    integration: (packageName, endpointName) =>
      createIntegrationEndpoint({ transport, appId }, packageName, endpointName),
    app: { getPublicSettings: () => publicSettings.get() },
    analytics,
    actors: actors.module,
    publicSettings,
    get asServiceRole() {
      if (!serviceToken) throw serviceTokenRequired();
      serviceRole ??= createServiceRoleClient<S>({
        transportConfig,
        serviceToken,
        appId,
        serverUrl,
        functionsVersion: options.functionsVersion,
        getUserToken: session.getToken,
        realtime: serviceRealtimeOf,
      });
      return serviceRole;
    },
    setToken: (token, persist) => auth.setToken(token, persist),
    getToken: session.getToken,
    getConfig: () => ({ serverUrl, appId, requiresAuth }),
    cleanup() {
      analytics.cleanup();
      actors.closeAll();
      userRealtime?.close();
      serviceRealtime?.close();
    },
  };
}
