/**
 * @jest-environment ./tests/support/jsdom-with-node-fetch.cjs
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
// React hooks need a DOM (jsdom); they run here, beside the other tests that need real servers.
// Node export conditions: see live-entity-list.test.tsx (`ws` has no browser build).
/**
 * useLiveConversation against the real emulator: the conversation loads over HTTP, new messages and
 * the agent's replies arrive by push without refetching, and messages added while the connection
 * was down appear after the reconnect.
 */
import { act, renderHook, waitFor } from '@testing-library/react';

import { useLiveConversation, type ConversationSource } from '@/lib/data/use-live-conversation';
import { sleep } from '@/tests/integration/realtime/harness';
import { emulatorWithClients } from '@/tests/support/emulator-clients';

import { countedClient, FreshCache } from './live-support';

import './real-server-waits';

const suite = emulatorWithClients();
const { clients } = suite;

/** Reads `data` and `live` during render, as a component would (SWR re-renders only for fields read). */
function useConversation(source: ConversationSource | null, id: string | null) {
  const { data, live } = useLiveConversation(source, id);
  return { data, live };
}

const contents = (messages: { content: string }[] | undefined) => messages?.map((message) => message.content);
const AUTOMATIC_REPLY = /automatic reply/;

it('loads the conversation, then receives new messages and the agent reply by push', async () => {
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const conversation = await viewer.client.agents.createConversation({ agent_name: 'helper' });
  const { result } = renderHook(() => useConversation(viewer.client, conversation.id), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));
  await waitFor(() => expect(result.current.data?.id).toBe(conversation.id));
  expect(result.current.data?.messages).toEqual([]);
  await act(() => sleep(100));
  const readsWhenLive = viewer.reads(`/conversations/${conversation.id}`);

  await act(() => viewer.client.agents.addMessage(conversation.id, { role: 'user', content: 'Hallo?' }));
  await waitFor(() => expect(result.current.data?.messages).toHaveLength(2));
  expect(contents(result.current.data?.messages)?.[0]).toBe('Hallo?');
  expect(result.current.data?.messages[1]).toMatchObject({
    role: 'assistant',
    content: expect.stringMatching(AUTOMATIC_REPLY),
  });
  expect(viewer.reads(`/conversations/${conversation.id}`)).toBe(readsWhenLive);
  expect(result.current.data).toEqual(await viewer.client.agents.getConversation(conversation.id));
});

it('shows the messages added while the connection was down once it is back', async () => {
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const conversation = await viewer.client.agents.createConversation({ agent_name: 'helper' });
  const { result } = renderHook(() => useConversation(viewer.client, conversation.id), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.live.status).toBe('live'));

  const port = await act(() => suite.platform.stop());
  await waitFor(() => expect(result.current.live.status).toBe('reconnecting'));
  await act(() =>
    suite.platform.whileAway(async (url) => {
      const away = clients.create(url, { token: suite.userToken });
      await away.agents.addMessage(conversation.id, { role: 'user', content: 'written while you were away' });
      // The emulator answers in the background; wait for the reply before closing it.
      for (let attempt = 0; attempt < 100; attempt += 1) {
        if ((await away.agents.getConversation(conversation.id)).messages.length === 2) return;
        await sleep(20);
      }
      throw new Error('The agent did not reply');
    }),
  );
  await act(() => suite.platform.startOn(port));

  await waitFor(() => expect(result.current.live.status).toBe('live'));
  await waitFor(() => expect(result.current.data?.messages).toHaveLength(2));
  expect(contents(result.current.data?.messages)?.[0]).toBe('written while you were away');
  expect(result.current.data).toEqual(await viewer.client.agents.getConversation(conversation.id));
});

it('keeps the newer version when an older push arrives late', async () => {
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const conversation = await viewer.client.agents.createConversation({ agent_name: 'helper' });
  await viewer.client.agents.addMessage(conversation.id, { role: 'user', content: 'first' });
  const { result } = renderHook(() => useConversation(viewer.client, conversation.id), { wrapper: FreshCache });
  await waitFor(() => expect(result.current.data?.messages).toHaveLength(2));
  await waitFor(() => expect(result.current.live.status).toBe('live'));

  // Replay the conversation as it was before the messages, as a delayed broadcast would.
  const stale = { ...conversation, messages: [] };
  await act(async () => {
    const response = await fetch(
      `${suite.platform.url}/api/_emulator/rooms/${encodeURIComponent(`/agent-conversations/${conversation.id}`)}/emit`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          event: 'update_model',
          payload: { room: `/agent-conversations/${conversation.id}`, data: JSON.stringify(stale) },
        }),
      },
    );
    expect(response.ok).toBe(true);
    await sleep(150);
  });
  expect(result.current.data?.messages).toHaveLength(2);
});

it('loads nothing without a conversation id', async () => {
  const viewer = countedClient(clients, suite.platform.url, suite.userToken);
  const { result } = renderHook(() => useConversation(viewer.client, null), { wrapper: FreshCache });
  await act(() => sleep(150));
  expect(result.current.data).toBeUndefined();
  expect(viewer.reads('')).toBe(0);
});
