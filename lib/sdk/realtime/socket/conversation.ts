/**
 * The state of a followed agent conversation, as the reference keeps it: loaded once on subscribe,
 * then each update's `_message` is merged in (replacing the message with its id, else appended).
 */
import type { AgentConversation } from '../../core/types';
import { mergeMessage, type ConversationChange } from './parse';

/**
 * Returns the handler for decoded updates. A whole conversation sent without `_message` (older
 * servers) replaces the state. Updates wait for the initial load; a failed load goes to `onError`
 * once, and later `_message` updates then have nothing to merge into.
 */
export function followConversation(
  initial: Promise<AgentConversation>,
  callback: (conversation: AgentConversation) => void,
  onError: (error: unknown) => void,
): (change: ConversationChange) => void {
  let current: AgentConversation | undefined;
  const loaded = initial.then((conversation) => {
    current ??= conversation;
  }, onError);
  return ({ message, conversation }) => {
    if (conversation) {
      current = conversation;
      callback(current);
      return;
    }
    void loaded.then(() => {
      if (!current || !message) return;
      current = { ...current, messages: mergeMessage(current.messages ?? [], message) };
      callback(current);
    });
  };
}
