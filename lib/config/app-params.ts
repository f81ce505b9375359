/**
 * Which platform, app and login page this page load talks to. The user token is not config: the
 * SDK's token store owns it and takes `access_token` from the address bar itself, once, when the
 * page's client is created (lib/shell/platform.ts, right after these params).
 *
 * Each value comes from the first source that yields a valid one:
 * 1. the address bar (`server_url`, `app_id`, `app_base_url`), validated, and then
 *    remembered in storage;
 * 2. the build-time env (`NEXT_PUBLIC_PLATFORM_*`); for the login page (`app_base_url`) a configured
 *    server counts as configuring it too (it defaults to the server), so a remembered login page
 *    never outranks a build that names its platform;
 * 3. values remembered from an earlier address-bar override, validated again (storage is writable by
 *    any script on the origin, an earlier version accepted paths, and the allowlist may have changed
 *    since); an invalid remembered value is removed;
 * 4. the built-in defaults (the local emulator).
 *
 * Server and app base URL overrides must be bare origins (no path, query, fragment or credentials)
 * that are allowlisted (NEXT_PUBLIC_OVERRIDE_ORIGINS, plus the configured origins themselves);
 * anything else is ignored. Only the build may configure a base URL with a path.
 */
import { hasWindow, originOf, parseOriginList, readStorage, removeStorage, writeStorage } from '@/lib/util';

import { DEFAULT_APP_ID, DEFAULT_SERVER_URL, readBuildEnv, type BuildEnv } from './env';
import { acceptAppId, acceptConfiguredBaseUrl, acceptOverrideOrigin } from './origin-allowlist';

export interface AppParams {
  serverUrl: string;
  appId: string;
  appBaseUrl: string;
}

/** URL parameter names, as the platform writes them. */
export const URL_PARAMS = {
  serverUrl: 'server_url',
  appId: 'app_id',
  appBaseUrl: 'app_base_url',
} as const;

/** Storage keys of remembered overrides (compatible with the reference app's `base44_` keys). */
export const STORED_PARAM_KEYS = {
  serverUrl: 'base44_server_url',
  appId: 'base44_app_id',
  appBaseUrl: 'base44_app_base_url',
} as const;

type StoredParam = keyof typeof STORED_PARAM_KEYS;

function readStored(name: StoredParam): string | null {
  return readStorage(STORED_PARAM_KEYS[name]);
}

/** Storage may be full or blocked; the override still applies to this page load. */
function remember(name: StoredParam, value: string): void {
  writeStorage(STORED_PARAM_KEYS[name], value);
}

function forget(name: StoredParam): void {
  removeStorage(STORED_PARAM_KEYS[name]);
}

/** A remembered value that `accept` still takes; anything else is removed from storage. */
function readRemembered(name: StoredParam, accept: (value: string) => string | null): string | null {
  const stored = readStored(name);
  if (stored === null) return null;
  const accepted = accept(stored);
  if (accepted === null) forget(name);
  return accepted;
}

/** Resolves the app params for the current page (reading the address bar, storage and the build env). */
export function resolveAppParams(env: BuildEnv = readBuildEnv()): AppParams {
  const configuredServer = acceptConfiguredBaseUrl(env.serverUrl);
  const configuredAppBase = acceptConfiguredBaseUrl(env.appBaseUrl);
  const search = hasWindow() ? new URL(window.location.href).searchParams : new URLSearchParams();

  const serverAllowlist = [
    ...parseOriginList(env.overrideOrigins).origins,
    originOf(configuredServer ?? DEFAULT_SERVER_URL),
  ].filter(isString);
  const acceptServer = (value: string | null) => acceptOverrideOrigin(value, serverAllowlist);
  const urlServer = acceptServer(search.get(URL_PARAMS.serverUrl));
  const serverUrl = urlServer ?? configuredServer ?? readRemembered('serverUrl', acceptServer) ?? DEFAULT_SERVER_URL;

  const urlAppId = acceptAppId(search.get(URL_PARAMS.appId));
  const appId = urlAppId ?? acceptAppId(env.appId) ?? readRemembered('appId', acceptAppId) ?? DEFAULT_APP_ID;

  // The login page defaults to the server, so the resolved server's origin is also acceptable.
  const appBaseAllowlist = [...serverAllowlist, originOf(configuredAppBase), originOf(serverUrl)].filter(isString);
  const acceptAppBase = (value: string | null) => acceptOverrideOrigin(value, appBaseAllowlist);
  const urlAppBase = acceptAppBase(search.get(URL_PARAMS.appBaseUrl));
  const rememberedAppBase = readRemembered('appBaseUrl', acceptAppBase);
  // A build that names its server has configured the login page too (it defaults to the server).
  const buildConfiguresAppBase = configuredAppBase !== null || configuredServer !== null;
  const appBaseUrl =
    urlAppBase ?? configuredAppBase ?? (buildConfiguresAppBase ? null : rememberedAppBase) ?? serverUrl;

  if (urlServer) remember('serverUrl', urlServer);
  if (urlAppId) remember('appId', urlAppId);
  if (urlAppBase) remember('appBaseUrl', urlAppBase);

  return { serverUrl, appId, appBaseUrl };
}

function isString(value: string | null): value is string {
  return value !== null;
}

let resolved: AppParams | undefined;

/** {@link resolveAppParams} once per page load; later calls return the same answer. */
export function getAppParams(): AppParams {
  resolved ??= resolveAppParams();
  return resolved;
}

/** Forgets the memoised params (tests). */
export function resetAppParams(): void {
  resolved = undefined;
}
