'use client';

import type { AgentConversation, AgentsModule } from '@/lib/sdk';

import { idOf, useLiveFeed, type LiveResponse } from './use-live-feed';

/** Anything with agents: a client or its `asServiceRole`. */
export interface ConversationSource {
  agents: Pick<AgentsModule, 'getConversation' | 'subscribeToConversation'>;
}

/** The newer of two versions of a conversation (the pushed one unless it is clearly older). */
function newer(current: AgentConversation, pushed: AgentConversation): AgentConversation {
  const currentDate = current.updated_date;
  const pushedDate = pushed.updated_date;
  if (typeof currentDate === 'string' && typeof pushedDate === 'string' && pushedDate < currentDate) return current;
  return pushed;
}

/**
 * An agent conversation, loaded over HTTP and replaced by each version the server pushes (a new
 * message, the agent's reply). Refetched after every reconnect. `conversationId` null/undefined:
 * nothing is loaded.
 *
 * @example
 * const { data: conversation, live } = useLiveConversation(client, conversationId);
 */
export function useLiveConversation(
  source: ConversationSource | null | undefined,
  conversationId: string | null | undefined,
): LiveResponse<AgentConversation> {
  const key = source && conversationId ? `live-conversation:${idOf(source)}:${conversationId}` : null;
  return useLiveFeed<AgentConversation, AgentConversation>(key, () => {
    const { agents } = source as ConversationSource;
    const id = conversationId as string;
    return {
      load: () => agents.getConversation(id),
      apply: newer,
      subscribe: (onChange, hooks) => agents.subscribeToConversation(id, onChange, hooks),
    };
  });
}
