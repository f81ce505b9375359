/** App params: build env, allowlisted address-bar overrides, remembered values and defaults. */
export {
  getAppParams,
  resolveAppParams,
  resetAppParams,
  URL_PARAMS,
  STORED_PARAM_KEYS,
  type AppParams,
} from './app-params';
export { DEFAULT_APP_ID, DEFAULT_SERVER_URL, readBuildEnv, type BuildEnv } from './env';
export { acceptAppId, acceptConfiguredBaseUrl, acceptOverrideOrigin } from './origin-allowlist';
