/** The platform SDK's public surface. Framework-free; real-time loads on first subscribe. */
export { createClient, DEFAULT_SERVER_URL, type ClientOptions, type PlatformClient } from './client';
export { createClientFromRequest } from './from-request';
export { Actor, type ActorConn } from './actor';
export type { ActorsModule, ActorRef, ActorConnection, ActorSubscription } from './actors';
export {
  PlatformError,
  PlatformError as Base44Error,
  isPlatformError,
  ErrorCodes,
  type PlatformErrorJSON,
  type SdkErrorCode,
} from './errors';
export {
  readStoredToken,
  storeToken,
  clearStoredToken,
  onStoredTokenChange,
  takeTokenFromAddress,
  tokenStore,
  ACCESS_TOKEN_KEY,
  DUPLICATE_TOKEN_KEY,
  TOKEN_PARAM,
  type StoredTokenListener,
  type TokenStore,
} from './token-store';
export {
  getAccessToken,
  saveAccessToken,
  removeAccessToken,
  getLoginUrl,
  type AccessTokenOptions,
} from './reference-helpers';
export type * from './connectors';
export type { FetchWithAuthInit } from './fetch-with-auth';
export type {
  AiGatewayModule,
  AiGatewayConnection,
  AnalyticsModule,
  TrackEventParams,
  TrackEventProperties,
} from './misc-modules';
export { safeRedirectTarget, isSameOriginUrl, parseAbsoluteHttpUrl, originOf } from './redirects';
export { SERVICE_TOKEN_REQUIRED_MESSAGE, type ServiceRoleClient, type SsoModule } from './service-role';
export type { SubscriptionHooks } from './realtime-hooks';
export type { CallOptions, QueryParams, RawResponse, FetchLike } from './transport';
export type { AuthModule, LoginProvider } from './auth';
export type { EntityHandler, EntitiesModule } from './entities';
export type {
  IntegrationEndpoint,
  IntegrationsModule,
  KnownCoreIntegrations,
  PackageIntegrations,
  CustomIntegrationsModule,
  CustomIntegrationCallParams,
  CustomIntegrationCallResponse,
} from './integrations';
export type { FunctionsModule } from './functions';
export type { AgentsModule, ConversationQuery } from './agents';
export type { AppLogsModule } from './app-logs';
export type { PublicSettingsModule } from './public-settings';
export type * from './types';
