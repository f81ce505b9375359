/**
 * The SDK's second entry: what a page can use of the platform before, or instead of, making a
 * client. The site's shell checks a visitor who holds no token with these alone (lib/shell/start-auth.ts),
 * so that this entry's few modules, not the client's (every module of `createClient`), are what
 * such a visitor's browser loads and runs. lib/sdk/index.ts exports all of it too.
 */
export { fetchPublicSettings } from './client/public-settings-only';
export { safeRedirectTarget } from './core/redirects';
export type { CallOptions } from './core/transport';
export { hasStartupToken, tokenStore, TOKEN_PARAM, type TokenStore } from './token/token-store';
