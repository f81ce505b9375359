/**
 * The one owner of the user access token outside a client: localStorage, under the reference
 * client's key and the duplicate key `token` that the platform's own SDK reads (docs/SPEC.md section 9),
 * with change events. A client created without a token takes the address bar's here, once
 * ({@link startupToken}), each client's session follows the store when its token is cleared, and
 * lib/auth clears through it: nobody else touches the two keys.
 *
 * Every function is safe without a window (SSR, prerender, Node) and when storage throws (Safari
 * private mode, sandboxed frames, quota): it then does nothing and reports "no token".
 */

import { hasWindow, readStorage, safeStorage } from '../../util';

/** The primary storage key. */
export const ACCESS_TOKEN_KEY = 'base44_access_token';
/** The duplicate key kept in sync for the platform's built-in SDK. */
export const DUPLICATE_TOKEN_KEY = 'token';

/** The stored token, or null when none is stored or storage is unavailable. */
export function readStoredToken(): string | null {
  return readStorage(ACCESS_TOKEN_KEY) || readStorage(DUPLICATE_TOKEN_KEY) || null;
}

/** Called with the new stored token (null when it was removed) and the one stored before. */
export type StoredTokenListener = (token: string | null, previous: string | null) => void;

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

function notify(token: string | null, previous: string | null): void {
  for (const listener of [...listeners]) {
    try {
      listener(token, previous);
    } catch {
      // One faulty listener must not keep the others from learning about the change.
    }
  }
}

/**
 * Runs a write to storage; a failure (quota, blocked storage) is logged with the reference client's
 * words, not thrown: the token still serves this page load, and the developer sees why it did not last.
 */
function attempt(write: (store: Storage) => void, failure: string): boolean {
  const store = safeStorage();
  if (!store) return false;
  try {
    write(store);
    return true;
  } catch (error) {
    console.error(failure, error);
    return false;
  }
}

/** Stores the token under both keys. Returns false when it could not be stored (a failure is logged). */
export function storeToken(token: string): boolean {
  if (!token) return false;
  const previous = readStoredToken();
  const stored = attempt((store) => {
    store.setItem(ACCESS_TOKEN_KEY, token);
    store.setItem(DUPLICATE_TOKEN_KEY, token);
  }, 'Failed to save token to localStorage:');
  if (stored) notify(token, previous);
  return stored;
}

/** Removes the token from both keys. Returns false when storage is unavailable (a failure is logged). */
export function clearStoredToken(): boolean {
  unstoredToken = null;
  const previous = readStoredToken();
  const cleared = attempt((store) => {
    store.removeItem(ACCESS_TOKEN_KEY);
    store.removeItem(DUPLICATE_TOKEN_KEY);
  }, 'Failed to remove token from localStorage:');
  if (cleared) notify(null, previous);
  return cleared;
}

/** The address-bar parameter a platform login hands the token back in. */
export const TOKEN_PARAM = 'access_token';

/**
 * A token handed over in the address bar while storage is blocked: it still serves this page load
 * (a client created later starts with it) until it is cleared.
 */
let unstoredToken: string | null = null;

/**
 * A token handed over in the address (`?access_token=`), as the reference client reads it: stored,
 * and removed from the address at once so it is not bookmarked, shared or sent as a Referer (every
 * other parameter, the fragment and the history state stay). Null when there is none (or no window).
 */
export function takeTokenFromAddress(): string | null {
  if (!hasWindow()) return null;
  let url: URL;
  try {
    url = new URL(window.location.href);
  } catch {
    return null;
  }
  if (!url.searchParams.has(TOKEN_PARAM)) return null;
  const token = url.searchParams.get(TOKEN_PARAM) || null;
  url.searchParams.delete(TOKEN_PARAM);
  try {
    // The absolute URL, never `pathname + search`: a path starting with `//` would be read as a
    // protocol-relative URL of another host, which replaceState refuses with a SecurityError.
    window.history.replaceState(window.history.state, '', url.href);
  } catch {
    // A page that cannot rewrite its address still gets the token; it was not stored in a URL by us.
  }
  if (token && !storeToken(token)) unstoredToken = token;
  return token;
}

/**
 * The token a client starts with when its options name none: one handed over in the address bar
 * (taken, stored and stripped by takeTokenFromAddress: the one place the site takes and writes it),
 * else the stored one. The only place that decides "address-bar token, else stored token". A stored
 * token that only one key holds gets the other too, as the reference keeps both in step; one stored
 * under both keys is not written again.
 */
export function startupToken(): string | null {
  const handedOver = takeTokenFromAddress();
  if (handedOver) return handedOver;
  const stored = readStoredToken();
  if (stored && readStorage(ACCESS_TOKEN_KEY) !== readStorage(DUPLICATE_TOKEN_KEY)) storeToken(stored);
  return stored ?? unstoredToken;
}

/** The token store as one object: what the index exports to the app. */
export interface TokenStore {
  /** The stored token, or null. */
  get(): string | null;
  /** Stores `token` under both keys; false when it could not be stored. */
  set(token: string): boolean;
  /** Removes the token from both keys (every client holding that token follows). */
  clear(): boolean;
  /** Calls `listener` on every change made in this page; returns the function that stops it. */
  onChange(listener: StoredTokenListener): () => void;
}

export const tokenStore: TokenStore = {
  get: readStoredToken,
  set: storeToken,
  clear: clearStoredToken,
  onChange: onStoredTokenChange,
};
