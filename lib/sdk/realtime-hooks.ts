/**
 * Optional lifecycle callbacks of a real-time subscription: errors, joins and disconnects.
 *
 * `entities.<Name>.subscribe(callback)` and `agents.subscribeToConversation(id, callback)` take a
 * plain change callback. A caller that also needs to know when the room is live (to refetch what it
 * may have missed) or why it is not wraps its callback with {@link withSubscriptionHooks}; the
 * wrapper travels through those public methods unchanged and the real-time layer reads the hooks
 * from it. This file ships in the initial bundle, so it stays tiny and imports types only.
 */
import type { PlatformError } from './errors';

export interface SubscriptionHooks {
  /**
   * Something this subscription should know went wrong: an update that could not be parsed or was too
   * large, a join the server refused, a refused connection, a socket URL over the length limit, or
   * real-time failing to load. The subscription stays registered.
   */
  onError?: (error: PlatformError) => void;
  /**
   * The room is joined for this subscription: when the join is sent on a (new) connection, or at once
   * (possibly before `subscribe` returns) when the room was already joined. Changes made while the
   * room was not joined were not delivered, so this is the moment to refetch.
   */
  onJoin?: () => void;
  /** The connection carrying the room dropped; the room is rejoined (and `onJoin` called) on reconnect. */
  onDisconnect?: () => void;
}

// A registered symbol, so the hooks survive two copies of this module (bundles, test registries).
const HOOKS_KEY = Symbol.for('coming-soon.platform-sdk.subscription-hooks');

/** Returns a callback that behaves like `callback` and carries `hooks` to the real-time layer. */
export function withSubscriptionHooks<Args extends unknown[]>(
  callback: (...args: Args) => void,
  hooks: SubscriptionHooks,
): (...args: Args) => void {
  const hooked = (...args: Args) => callback(...args);
  Object.defineProperty(hooked, HOOKS_KEY, { value: hooks });
  return hooked;
}

/** The hooks a callback carries; none for a plain function. */
export function subscriptionHooksOf(callback: unknown): SubscriptionHooks {
  if (typeof callback !== 'function') return {};
  const hooks = (callback as unknown as Record<symbol, unknown>)[HOOKS_KEY];
  return typeof hooks === 'object' && hooks !== null ? (hooks as SubscriptionHooks) : {};
}
