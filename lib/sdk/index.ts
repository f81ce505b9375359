/** The platform SDK's public surface. Framework-free; real-time loads on first subscribe. */
export { createClient } from './client/create-client';
export { DEFAULT_SERVER_URL, type ClientOptions, type PlatformClient } from './client/client-types';
export { createClientFromRequest } from './client/from-request';
export { Actor, type ActorConn } from './actors/actor';
export type { ActorsModule, ActorRef, ActorConnection, ActorSubscription } from './actors/actor-types';
export {
  PlatformError,
  PlatformError as Base44Error,
  isPlatformError,
  ErrorCodes,
  type PlatformErrorJSON,
  type SdkErrorCode,
} from './core/errors';
// The stored token has one public face, `tokenStore` (get, set, clear, onChange); its functions stay
// internal so that there is one way to reach it.
export {
  takeTokenFromAddress,
  tokenStore,
  ACCESS_TOKEN_KEY,
  DUPLICATE_TOKEN_KEY,
  TOKEN_PARAM,
  type StoredTokenListener,
  type TokenStore,
} from './token/token-store';
export {
  getAccessToken,
  saveAccessToken,
  removeAccessToken,
  getLoginUrl,
  type AccessTokenOptions,
} from './token/reference-helpers';
export type * from './connectors/connectors.lazy';
export type { FetchWithAuthInit } from './client/fetch-with-auth.lazy';
export type { AiGatewayModule, AiGatewayConnection } from './ai-gateway/ai-gateway';
export type { AnalyticsModule, TrackEventParams, TrackEventProperties } from './analytics/analytics-types';
export { safeRedirectTarget, isSameOriginUrl, parseAbsoluteHttpUrl, originOf } from './core/redirects';
export { SERVICE_TOKEN_REQUIRED_MESSAGE, type ServiceRoleClient, type SsoModule } from './client/service-role';
export type { SubscriptionHooks } from './realtime/subscription-hooks';
export type { CallOptions, QueryParams, RawResponse, FetchLike } from './core/transport';
export type { AuthModule, LoginProvider } from './auth/auth';
export type { EntityHandler, EntitiesModule } from './entities/entities';
export type {
  IntegrationEndpoint,
  IntegrationsModule,
  KnownCoreIntegrations,
  PackageIntegrations,
  CustomIntegrationsModule,
  CustomIntegrationCallParams,
  CustomIntegrationCallResponse,
} from './integrations/integration-types';
export type { FunctionsModule } from './functions/functions';
export type { AgentsModule, ConversationQuery } from './agents/agents';
export type { AppLogsModule } from './app-logs/app-logs';
export type { PublicSettingsModule } from './public-settings/public-settings';
export type * from './core/types';
