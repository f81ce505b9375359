/**
 * Optional lifecycle callbacks of a real-time subscription: errors, joins and disconnects.
 *
 * `entities.<Name>.subscribe(callback, hooks?)` and `agents.subscribeToConversation(id, callback,
 * hooks?)` take them as an explicit last argument (the reference's methods have none; a caller
 * written for it passes none). A caller that needs to know when the room is live (to refetch what
 * it may have missed) or why it is not passes them. Types only.
 */
import type { PlatformError } from '../core/errors';

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
