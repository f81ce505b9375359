/**
 * AI agent conversations (docs/SPEC.md section 7, docs/PLATFORM-NOTES.md "Agent conversation").
 */
import { toJson } from '../core/errors';
import type { CallOptions, ModuleContext } from '../core/transport';
import type { AgentConversation, AgentMessage, NewConversation, Unsubscribe } from '../core/types';
import { apiPath, assertPathSegment } from '../core/validate';
import type { RealtimeSubscriptions } from '../realtime/realtime-loader';
import type { SubscriptionHooks } from '../realtime/subscription-hooks';

/** Filters for listing conversations; `q` is sent as JSON like entity filters. */
export interface ConversationQuery {
  q?: Record<string, unknown>;
  sort?: string;
  limit?: number;
  skip?: number;
  fields?: readonly string[];
}

export interface AgentsModule {
  /** Lists the caller's conversations, optionally filtered. */
  listConversations(query?: ConversationQuery, options?: CallOptions): Promise<AgentConversation[]>;
  /** Lists every conversation visible to the caller (reference name). */
  getConversations(options?: CallOptions): Promise<AgentConversation[]>;
  /** Reads one conversation with its messages. */
  getConversation(conversationId: string, options?: CallOptions): Promise<AgentConversation>;
  /** Starts a conversation with an agent. */
  createConversation(conversation: NewConversation, options?: CallOptions): Promise<AgentConversation>;
  /**
   * Appends a message (`POST conversations/v2/{id}/messages`); the agent's reply arrives through
   * {@link AgentsModule.subscribeToConversation}.
   */
  addMessage(
    conversation: string | Pick<AgentConversation, 'id'>,
    message: AgentMessage,
    options?: CallOptions,
  ): Promise<AgentMessage>;
  /**
   * Loads the conversation once, then calls `onUpdate` with the whole conversation each time a message
   * is added or changed. Loads real-time on first use. `hooks` (ours, optional) report errors, joins
   * and disconnects.
   */
  subscribeToConversation(
    conversationId: string,
    onUpdate: (conversation: AgentConversation) => void,
    hooks?: SubscriptionHooks,
  ): Unsubscribe;
  /** The link that connects an agent to WhatsApp for the signed-in user (a link, not a request). */
  getWhatsAppConnectURL(agentName: string): string;
  /** The link that connects an agent to Telegram for the signed-in user (a link, not a request). */
  getTelegramConnectURL(agentName: string): string;
}

interface AgentsContext extends ModuleContext {
  serverUrl: string;
  getToken: () => string | null;
  realtime: () => RealtimeSubscriptions;
}

export function createAgentsModule({ transport, appId, serverUrl, getToken, realtime }: AgentsContext): AgentsModule {
  const conversationsPath = apiPath`/apps/${appId}/agents/conversations`;
  const conversationPath = (id: string) =>
    `${conversationsPath}/${encodeURIComponent(assertPathSegment('Conversation id', id))}`;

  async function listConversations(query: ConversationQuery = {}, options?: CallOptions) {
    return transport.request<AgentConversation[]>(
      {
        method: 'GET',
        path: conversationsPath,
        query: {
          q: query.q ? toJson('The filter', query.q) : undefined,
          sort: query.sort,
          limit: query.limit,
          skip: query.skip,
          fields: query.fields?.join(','),
        },
      },
      options,
    );
  }

  function connectUrl(agentName: string, channel: string): string {
    const base = `${serverUrl.replace(/\/+$/, '')}/api${apiPath`/apps/${appId}/agents/${agentName}/${channel}`}`;
    const token = getToken();
    // Without a token the platform sends the visitor through its login first.
    return token ? `${base}?token=${encodeURIComponent(token)}` : base;
  }

  return {
    listConversations,
    getConversations: (options) => listConversations({}, options),
    getConversation: async (id, options) => transport.request({ method: 'GET', path: conversationPath(id) }, options),
    createConversation: (conversation, options) =>
      transport.request({ method: 'POST', path: conversationsPath, body: conversation }, options),
    async addMessage(conversation, message, options) {
      const id = typeof conversation === 'string' ? conversation : conversation?.id;
      const path = `${conversationsPath}/v2/${encodeURIComponent(assertPathSegment('Conversation id', id))}/messages`;
      return transport.request({ method: 'POST', path, body: message }, options);
    },
    subscribeToConversation(conversationId, onUpdate, hooks) {
      const id = assertPathSegment('Conversation id', conversationId);
      // Like the reference: the conversation is loaded once, at once; updates are merged into it.
      const initial = transport.request<AgentConversation>({ method: 'GET', path: conversationPath(id) });
      initial.catch(() => undefined);
      return realtime().subscribeToConversation(id, onUpdate, hooks, initial);
    },
    getWhatsAppConnectURL: (agentName) => connectUrl(agentName, 'whatsapp'),
    getTelegramConnectURL: (agentName) => connectUrl(agentName, 'telegram'),
  };
}
