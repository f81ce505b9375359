import {
  conversationRoom,
  entityRoom,
  parseConversationUpdate,
  parseEntityChange,
  SOCKET_OPTIONS,
} from '@/lib/sdk/realtime/socket/realtime.lazy';

describe('parseEntityChange', () => {
  it('parses the JSON string the platform sends', () => {
    const data = JSON.stringify({
      type: 'update',
      id: 'r1',
      data: { id: 'r1', title: 'x' },
      timestamp: '2025-01-01T00:00:00.000Z',
    });
    expect(parseEntityChange(data)).toEqual({
      type: 'update',
      id: 'r1',
      data: { id: 'r1', title: 'x' },
      timestamp: '2025-01-01T00:00:00.000Z',
    });
  });

  it('takes the id from the record when the event has none, and stamps a missing timestamp', () => {
    const event = parseEntityChange({ type: 'create', data: { id: 'from-record' } });
    expect(event?.id).toBe('from-record');
    expect(Date.parse(event?.timestamp ?? '')).not.toBeNaN();
  });

  it.each([
    ['invalid JSON', '{oops'],
    ['an unknown type', JSON.stringify({ type: 'explode', id: 'x' })],
    ['no id anywhere', JSON.stringify({ type: 'delete' })],
    ['a number', 7],
    ['null', null],
    ['an array', JSON.stringify([1, 2])],
  ])('returns null for %s', (_label, data) => {
    expect(parseEntityChange(data)).toBeNull();
  });
});

describe('parseConversationUpdate', () => {
  const conversation = { id: 'c1', agent_name: 'helper', messages: [{ id: 'm1', role: 'user', content: 'hi' }] };

  it('returns the conversation without the `_message` marker', () => {
    const parsed = parseConversationUpdate(JSON.stringify({ ...conversation, _message: conversation.messages[0] }));
    expect(parsed).toEqual(conversation);
  });

  it('merges a changed message that the conversation does not hold yet, or replaces it by id', () => {
    const added = parseConversationUpdate({
      ...conversation,
      _message: { id: 'm2', role: 'assistant', content: 'hello' },
    });
    expect(added?.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    const edited = parseConversationUpdate({
      ...conversation,
      _message: { id: 'm1', role: 'user', content: 'edited' },
    });
    expect(edited?.messages).toEqual([{ id: 'm1', role: 'user', content: 'edited' }]);
  });

  it.each([['{bad'], [JSON.stringify({ id: 'c1' })], [JSON.stringify({ messages: [] })], [null]])(
    'returns null for %p',
    (data) => {
      expect(parseConversationUpdate(data)).toBeNull();
    },
  );
});

describe('rooms and socket options (docs/SPEC.md sections 7 and 9)', () => {
  it('names rooms like the platform', () => {
    expect(entityRoom('coming-soon', 'Todo')).toBe('entities:coming-soon:Todo');
    expect(conversationRoom('c1')).toBe('/agent-conversations/c1');
  });

  it('reconnects 1 s to 5 s with jitter 0.5 forever, times out connecting after 20 s, websocket only', () => {
    expect(SOCKET_OPTIONS).toEqual({
      path: '/ws-user-apps/socket.io/',
      transports: ['websocket'],
      reconnection: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      reconnectionAttempts: Infinity,
      timeout: 20_000,
    });
  });
});
