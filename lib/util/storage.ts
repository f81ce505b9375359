/**
 * Web storage that never throws. Reading `window.localStorage` itself throws when storage is blocked
 * (Safari private mode, sandboxed frames, disabled cookies), and writes throw when it is full; every
 * caller wants "nothing stored" / "not stored" then, never an exception.
 */
export type StorageArea = 'localStorage' | 'sessionStorage';

/**
 * The storage area, or undefined without a window or when it is blocked. A window without a
 * `location` (embedded runtimes, test stubs) still has its storage, as the reference client assumes.
 */
export function safeStorage(area: StorageArea = 'localStorage'): Storage | undefined {
  try {
    return typeof window !== 'undefined' ? (window[area] ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}

/** The stored value, or null when there is none or storage is unavailable. */
export function readStorage(key: string, area: StorageArea = 'localStorage'): string | null {
  try {
    return safeStorage(area)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Stores the value; false when storage is unavailable, blocked or full. */
export function writeStorage(key: string, value: string, area: StorageArea = 'localStorage'): boolean {
  const store = safeStorage(area);
  if (!store) return false;
  try {
    store.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** Removes the value; false when storage is unavailable or blocked. */
export function removeStorage(key: string, area: StorageArea = 'localStorage'): boolean {
  const store = safeStorage(area);
  if (!store) return false;
  try {
    store.removeItem(key);
    return true;
  } catch {
    return false;
  }
}
