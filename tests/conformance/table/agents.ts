/** Agent conversations: reads, writes on the current (v2) route, real-time merging, connect links. */
import { answerWith, encodedSegments, rows, serviceRoleSocket } from './helpers';

const CONVERSATION = {
  id: 'c1',
  app_id: 'app-1',
  agent_name: 'helper',
  created_by_id: 'u1',
  created_date: '2026-01-01T00:00:00.000Z',
  updated_date: '2026-01-01T00:00:00.000Z',
  messages: [
    {
      id: 'm1',
      role: 'user' as const,
      content: 'Hallo',
      created_date: '2026-01-01T00:00:00.000Z',
      updated_date: '2026-01-01T00:00:00.000Z',
    },
  ],
  metadata: { topic: 'Grüße' },
};

export const agentRows = rows(
  {
    name: 'agents: conversations',
    covers: ['agents.getConversations', 'agents.getConversation', 'agents.createConversation', 'agents.addMessage'],
    config: { token: 'user-token' },
    answer: answerWith(CONVERSATION),
    async run(client) {
      return [
        await client.agents.getConversations(),
        await client.agents.getConversation('c1'),
        await client.agents.createConversation({ agent_name: 'helper', metadata: { topic: 'x' } }),
        await client.agents.addMessage(CONVERSATION, { role: 'user', content: 'Noch eine Frage' }),
      ];
    },
  },
  {
    name: 'agents: listConversations with filters',
    covers: ['agents.listConversations'],
    config: { token: 'user-token' },
    answer: answerWith([CONVERSATION]),
    run: (client) => client.agents.listConversations({ sort: '-created_date', limit: 5, skip: 5 }),
  },
  {
    name: 'agents: addMessage to an id that needs encoding',
    covers: ['agents.addMessage'],
    answer: answerWith({ id: 'm2' }),
    run: (client) => client.agents.addMessage({ ...CONVERSATION, id: 'c/1' }, { role: 'user', content: 'x' }),
    deviation: encodedSegments((path) => [...path.slice(0, -3), 'c/1', 'messages']),
  },
  {
    name: 'agents: subscribeToConversation loads once, then merges each _message',
    covers: ['agents.subscribeToConversation'],
    config: { token: 'user-token' },
    answer: answerWith(CONVERSATION),
    async run(client, tools) {
      const updates: unknown[] = [];
      const stop = client.agents.subscribeToConversation('c1', (conversation) => updates.push(conversation));
      await tools.waitForSocket('join', '/agent-conversations/c1');
      await tools.push('/agent-conversations/c1', {
        _message: { id: 'm2', role: 'assistant', content: 'Hallo zurück' },
      });
      await tools.until(() => updates.length === 1, 'the first update');
      await tools.push('/agent-conversations/c1', {
        _message: { id: 'm2', role: 'assistant', content: 'Hallo zurück!' },
      });
      await tools.until(() => updates.length === 2, 'the second update');
      stop();
      await tools.waitForSocket('leave', '/agent-conversations/c1');
      return updates;
    },
  },
  {
    name: 'agents: connect links carry the token',
    covers: ['agents.getWhatsAppConnectURL', 'agents.getTelegramConnectURL'],
    config: { token: 'user-token' },
    run: async (client) => [
      client.agents.getWhatsAppConnectURL('helper bot'),
      client.agents.getTelegramConnectURL('helper'),
    ],
  },
  {
    name: 'service role: agents',
    covers: [
      'asServiceRole.agents.getConversations',
      'asServiceRole.agents.getConversation',
      'asServiceRole.agents.listConversations',
      'asServiceRole.agents.createConversation',
      'asServiceRole.agents.addMessage',
      'asServiceRole.agents.getWhatsAppConnectURL',
      'asServiceRole.agents.getTelegramConnectURL',
    ],
    config: { serviceToken: 'svc-token', token: 'user-token' },
    answer: answerWith(CONVERSATION),
    async run(client) {
      const agents = client.asServiceRole.agents;
      return [
        await agents.getConversations(),
        await agents.getConversation('c1'),
        await agents.listConversations({ limit: 1 }),
        await agents.createConversation({ agent_name: 'helper' }),
        await agents.addMessage(CONVERSATION, { role: 'user', content: 'x' }),
        agents.getWhatsAppConnectURL('helper'),
        agents.getTelegramConnectURL('helper'),
      ];
    },
  },
  {
    name: 'service role: subscribeToConversation',
    covers: ['asServiceRole.agents.subscribeToConversation'],
    config: { serviceToken: 'svc-token', token: 'user-token' },
    answer: answerWith(CONVERSATION),
    async run(client, tools) {
      const updates: unknown[] = [];
      const stop = client.asServiceRole.agents.subscribeToConversation('c1', (conversation) =>
        updates.push(conversation),
      );
      await tools.waitForSocket('join', '/agent-conversations/c1');
      await tools.push('/agent-conversations/c1', { _message: { id: 'm3', role: 'assistant', content: 'x' } });
      await tools.until(() => updates.length === 1, 'an update');
      stop();
      await tools.waitForSocket('leave', '/agent-conversations/c1');
      return updates;
    },
    deviation: serviceRoleSocket,
  },
);
