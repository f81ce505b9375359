/**
 * The reference package's token and login-link helpers, under its names, on top of our token store
 * (so code that imports them keeps working after switching the import).
 */
import { hasWindow, readStorage, removeStorage, writeStorage } from '../../util';
import { invalidArgument } from '../core/errors';
import { ACCESS_TOKEN_KEY, DUPLICATE_TOKEN_KEY, storeToken, takeTokenFromAddress, TOKEN_PARAM } from './token-store';

export interface AccessTokenOptions {
  storageKey?: string;
  paramName?: string;
  saveToStorage?: boolean;
  removeFromUrl?: boolean;
}

/** The token from `?access_token=` (stored and removed from the address by default), else the stored one. */
export function getAccessToken(options: AccessTokenOptions = {}): string | null {
  const {
    storageKey = ACCESS_TOKEN_KEY,
    paramName = TOKEN_PARAM,
    saveToStorage = true,
    removeFromUrl = true,
  } = options;
  if (paramName === TOKEN_PARAM && storageKey === ACCESS_TOKEN_KEY && saveToStorage && removeFromUrl) {
    const handedOver = takeTokenFromAddress();
    if (handedOver) return handedOver;
  } else if (hasWindow()) {
    const handedOver = new URL(window.location.href).searchParams.get(paramName);
    if (handedOver) {
      if (saveToStorage) saveAccessToken(handedOver, { storageKey });
      return handedOver;
    }
  }
  return readStorage(storageKey);
}

/** Stores a token under `storageKey` (and the platform's duplicate key). */
export function saveAccessToken(token: string, options: { storageKey?: string } = {}): boolean {
  const { storageKey = ACCESS_TOKEN_KEY } = options;
  if (storageKey === ACCESS_TOKEN_KEY) return storeToken(token);
  if (!token) return false;
  return writeStorage(storageKey, token) && writeStorage(DUPLICATE_TOKEN_KEY, token);
}

/** Removes the token stored under `storageKey`. */
export function removeAccessToken(options: { storageKey?: string } = {}): boolean {
  return removeStorage(options.storageKey ?? ACCESS_TOKEN_KEY);
}

/** `{serverUrl}{loginPath}?from_url=...&app_id=...`, as the reference builds it. */
export function getLoginUrl(
  nextUrl: string,
  options: { serverUrl: string; appId: string; loginPath?: string },
): string {
  const { serverUrl, appId, loginPath = '/login' } = options;
  if (!serverUrl || !appId) throw invalidArgument('serverUrl and appId are required to construct login URL');
  const from = nextUrl || (hasWindow() ? window.location.href : '');
  return `${serverUrl}${loginPath}?from_url=${encodeURIComponent(from)}&app_id=${encodeURIComponent(appId)}`;
}
