/**
 * The anonymous visitor id the platform uses to group an anonymous visitor's agent conversations
 * (`X-Base44-Anonymous-Id` on unauthenticated requests, `anonymous_id` in the socket handshake).
 *
 * The reference client stores a new id in localStorage on the first anonymous request. An identifier
 * written to a visitor's device is tracking under German law (TTDSG section 25) unless the visitor
 * agreed, so ours only READS a stored id; a new one lives in memory for this page load, and is stored
 * only by `persistVisitorId()` (called when the site has enabled analytics, i.e. has consent).
 */

/** The reference client's storage key, shared so both see the same visitor. */
export const VISITOR_ID_KEY = 'base44_analytics_session_id';

let pageVisitorId: string | undefined;

function storage(): Storage | undefined {
  try {
    return typeof window !== 'undefined' ? window.localStorage : undefined;
  } catch {
    return undefined;
  }
}

function newId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return random ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

/** The stored visitor id, else this page load's own. */
export function visitorId(): string {
  try {
    const stored = storage()?.getItem(VISITOR_ID_KEY);
    if (stored) return stored;
  } catch {
    // Blocked storage: fall back to the in-memory id.
  }
  return (pageVisitorId ??= newId());
}

/** Stores the visitor id (only with the visitor's consent: analytics enabled by the site). */
export function persistVisitorId(): string {
  const id = visitorId();
  try {
    storage()?.setItem(VISITOR_ID_KEY, id);
  } catch {
    // Nothing to do: the id still works for this page load.
  }
  return id;
}
