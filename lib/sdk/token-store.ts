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

/** Called with the new stored token (null when it was removed). */
export type StoredTokenListener = (token: string | null) => void;

const listeners = new Set<StoredTokenListener>();

/**
 * Calls `listener` whenever this page stores or removes the token through this module (a login, a
 * logout, a token the server rejected with 401). Other tabs are reported by the `storage` event.
 * @returns A function that stops listening.
 */
export function onStoredTokenChange(listener: StoredTokenListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(token: string | null): void {
  for (const listener of [...listeners]) {
    try {
      listener(token);
    } catch {
      // One faulty listener must not keep the others from learning about the change.
    }
  }
}

/** Stores the token under both keys. Returns false when it could not be stored. */
export function storeToken(token: string): boolean {
  const store = storage();
  if (!store || !token) return false;
  try {
    store.setItem(ACCESS_TOKEN_KEY, token);
    store.setItem(DUPLICATE_TOKEN_KEY, token);
  } catch {
    return false;
  }
  notify(token);
  return true;
}

/** Removes the token from both keys. Returns false when storage is unavailable. */
export function clearStoredToken(): boolean {
  const store = storage();
  if (!store) return false;
  try {
    store.removeItem(ACCESS_TOKEN_KEY);
    store.removeItem(DUPLICATE_TOKEN_KEY);
  } catch {
    return false;
  }
  notify(null);
  return true;
}

/** The address-bar parameter a platform login hands the token back in. */
export const TOKEN_PARAM = 'access_token';

/**
 * A token handed over in the address (`?access_token=`), as the reference client reads it: stored,
 * and removed from the address at once so it is not bookmarked, shared or sent as a Referer.
 * Null when there is none (or no window).
 */
export function takeTokenFromAddress(): string | null {
  if (typeof window === 'undefined' || !window.location) return null;
  try {
    const url = new URL(window.location.href);
    const token = url.searchParams.get(TOKEN_PARAM);
    if (!token) return null;
    storeToken(token);
    url.searchParams.delete(TOKEN_PARAM);
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    return token;
  } catch {
    return null;
  }
}
