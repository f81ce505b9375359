/**
 * The anonymous visitor id the platform uses to group an anonymous visitor's agent conversations
 * (`X-Base44-Anonymous-Id` on unauthenticated requests, `anonymous_id` in the socket handshake).
 *
 * The reference client stores a new id in localStorage on the first anonymous request. An identifier
 * written to a visitor's device is tracking under German law (TTDSG section 25) unless the visitor
 * agreed, so ours only READS a stored id; a new one lives in memory for this page load, and is stored
 * only by `persistVisitorId()` (called when the site has enabled analytics, i.e. has consent).
 */

import { readStorage, writeStorage } from '../../util';

/** The reference client's storage key, shared so both see the same visitor. */
export const VISITOR_ID_KEY = 'base44_analytics_session_id';

let pageVisitorId: string | undefined;

function newId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return random ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

/** The stored visitor id, else this page load's own. */
export function visitorId(): string {
  // Blocked storage reads as "nothing stored": the in-memory id serves.
  return readStorage(VISITOR_ID_KEY) || (pageVisitorId ??= newId());
}

/** Stores the visitor id (only with the visitor's consent: analytics enabled by the site). */
export function persistVisitorId(): string {
  const id = visitorId();
  // Not stored (blocked or full storage): the id still works for this page load.
  writeStorage(VISITOR_ID_KEY, id);
  return id;
}
