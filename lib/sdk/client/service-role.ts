/**
 * `client.asServiceRole`: the same modules authenticated with the app's service token, which bypasses
 * entity access rules. For trusted code only (backend functions, scripts); never ship a service token
 * to a browser.
 */
import type { ConnectorsModule } from '../connectors/connectors.lazy';
import { ErrorCodes, PlatformError } from '../core/errors';
import { lazyMethods } from '../core/lazy-methods';
import { createTransport, type CallOptions, type TransportConfig } from '../core/transport';
import type { EntitySchemas } from '../core/types';
import { apiPath, assertPathSegment } from '../core/validate';
import type { RealtimeSubscriptions } from '../realtime/realtime-loader';
import { createRoleModules, type RoleModules } from './role-modules';

/** The exact message of docs/SPEC.md section 6 (the reference client's wording). */
export const SERVICE_TOKEN_REQUIRED_MESSAGE =
  'Service token is required to use asServiceRole. Please provide a serviceToken when creating the client.';

export interface SsoModule {
  /** An SSO access token for a user (`GET /apps/{appId}/auth/sso/accesstoken/{userId}`). */
  getAccessToken(userId: string, options?: CallOptions): Promise<{ access_token: string }>;
  /** The user's stored SSO (OIDC) id token (`GET /apps/{appId}/auth/sso/idtoken/{userId}`). */
  getIdToken(userId: string, options?: CallOptions): Promise<string>;
}

/** The modules shared with the user client (entities, entity, integrations, functions, agents, appLogs, aiGateway), plus: */
export interface ServiceRoleClient<S extends EntitySchemas> extends RoleModules<S> {
  connectors: ConnectorsModule;
  sso: SsoModule;
  /** Closes the service role's real-time socket. */
  cleanup(): void;
}

interface ServiceRoleContext {
  transportConfig: Omit<TransportConfig, 'authHeaders'>;
  serviceToken: string;
  appId: string;
  serverUrl: string;
  functionsVersion: string | undefined;
  getUserToken: () => string | null;
  realtime: () => RealtimeSubscriptions;
}

export function serviceTokenRequired(): PlatformError {
  return new PlatformError(SERVICE_TOKEN_REQUIRED_MESSAGE, { code: ErrorCodes.serviceTokenRequired });
}

export function createServiceRoleClient<S extends EntitySchemas>(context: ServiceRoleContext): ServiceRoleClient<S> {
  const { appId, serviceToken, getUserToken, realtime } = context;
  const transport = createTransport({
    ...context.transportConfig,
    authHeaders: () => {
      const headers: Record<string, string> = { Authorization: `Bearer ${serviceToken}` };
      const userToken = getUserToken();
      // Like the reference client: name the signed-in user the service call acts for, if any.
      if (userToken) headers['on-behalf-of'] = `Bearer ${userToken}`;
      return headers;
    },
  });
  const ssoPath = (kind: string, userId: string) =>
    apiPath`/apps/${appId}/auth/sso/${kind}/${assertPathSegment('User id', userId)}`;
  return {
    ...createRoleModules<S>({
      transport,
      appId,
      serverUrl: context.serverUrl,
      fetch: context.transportConfig.fetch,
      functionsVersion: context.functionsVersion,
      realtime,
      functionsAuthorization: () => `Bearer ${serviceToken}`,
      gatewayToken: () => serviceToken,
      userToken: getUserToken,
    }),
    connectors: lazyMethods(
      async () => (await import('../connectors/connectors.lazy')).createConnectorsModule({ transport, appId }),
      [
        'getAccessToken',
        'getConnection',
        'getWorkspaceConnection',
        'getCurrentAppUserAccessToken',
        'getCurrentAppUserConnection',
        'callApi',
      ],
    ) as ConnectorsModule,
    sso: {
      getAccessToken: (userId, options) =>
        transport.request({ method: 'GET', path: ssoPath('accesstoken', userId) }, options),
      getIdToken: (userId, options) => transport.request({ method: 'GET', path: ssoPath('idtoken', userId) }, options),
    },
    cleanup: () => realtime().close(),
  };
}
