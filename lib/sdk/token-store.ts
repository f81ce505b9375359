/**
 * The user access token in localStorage, under the reference client's key and the duplicate key
 * `token` that the platform's own SDK reads (SPEC section 9).
 *
 * Every function is safe without a window (SSR, prerender, Node) and when storage throws (Safari
 * private mode, sandboxed frames, quota): it then does nothing and reports "no token".
 */

/** The primary storage key. */
export const ACCESS_TOKEN_KEY = 'base44_access_token';
/** The duplicate key kept in sync for the platform's built-in SDK. */
export const DUPLICATE_TOKEN_KEY = 'token';

function storage(): Storage | undefined {
  try {
    return typeof window !== 'undefined' ? window.localStorage : undefined;
  } catch {
    // Reading the property itself throws when storage is blocked.
    return undefined;
  }
}

/** The stored token, or null when none is stored or storage is unavailable. */
export function readStoredToken(): string | null {
  try {
    const store = storage();
    return store?.getItem(ACCESS_TOKEN_KEY) || store?.getItem(DUPLICATE_TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

/** Stores the token under both keys. Returns false when it could not be stored. */
export function storeToken(token: string): boolean {
  const store = storage();
  if (!store || !token) return false;
  try {
    store.setItem(ACCESS_TOKEN_KEY, token);
    store.setItem(DUPLICATE_TOKEN_KEY, token);
    return true;
  } catch {
    return false;
  }
}

/** Removes the token from both keys. Returns false when storage is unavailable. */
export function clearStoredToken(): boolean {
  const store = storage();
  if (!store) return false;
  try {
    store.removeItem(ACCESS_TOKEN_KEY);
    store.removeItem(DUPLICATE_TOKEN_KEY);
    return true;
  } catch {
    return false;
  }
}
