/**
 * The client's options and shape (`createClient()` in create-client.ts builds it), with the
 * reference client's names and defaults.
 */
import type { ActorsModule } from '../actors/actor-types';
import type { AgentsModule } from '../agents/agents';
import type { AiGatewayModule } from '../ai-gateway/ai-gateway';
import type { AnalyticsModule } from '../analytics/analytics-types';
import type { AppLogsModule } from '../app-logs/app-logs';
import type { AuthModule } from '../auth/auth';
import type { UserConnectorsModule } from '../connectors/connectors.lazy';
import type { PlatformError } from '../core/errors';
import type { FetchLike } from '../core/transport';
import type { DefaultEntitySchemas, EntityFields, EntitySchemas, PublicSettingsResponse } from '../core/types';
import type { EntitiesModule, EntityHandler } from '../entities/entities';
import type { FunctionsModule } from '../functions/functions';
import type { IntegrationEndpoint, IntegrationsModule } from '../integrations/integration-types';
import type { PublicSettingsModule } from '../public-settings/public-settings';
import type { FetchWithAuthInit } from './fetch-with-auth.lazy';
import type { ServiceRoleClient } from './service-role';

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
