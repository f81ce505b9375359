/** The platform SDK's public surface. Framework-free; real-time loads on first subscribe. */
export { createClient, type ClientOptions, type PlatformClient } from './client';
export { PlatformError, isPlatformError, ErrorCodes, type PlatformErrorJSON, type SdkErrorCode } from './errors';
export { readStoredToken, storeToken, clearStoredToken, ACCESS_TOKEN_KEY, DUPLICATE_TOKEN_KEY } from './token-store';
export { safeRedirectTarget, isSameOriginUrl, parseAbsoluteHttpUrl, originOf } from './redirects';
export { SERVICE_TOKEN_REQUIRED_MESSAGE, type ServiceRoleClient, type SsoModule } from './service-role';
export { withSubscriptionHooks, type SubscriptionHooks } from './realtime-hooks';
export type { CallOptions, QueryParams, RawResponse, FetchLike } from './transport';
export type { AuthModule } from './auth';
export type { EntityHandler, EntitiesModule } from './entities';
export type { IntegrationEndpoint, IntegrationsModule, KnownCoreIntegrations, PackageIntegrations } from './integrations';
export type { FunctionsModule } from './functions';
export type { AgentsModule, ConversationQuery } from './agents';
export type { AppLogsModule } from './app-logs';
export type { PublicSettingsModule } from './public-settings';
export type * from './types';
