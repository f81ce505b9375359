import type { AgentResponder, RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

let emulator: RunningEmulator;
let api: ApiCall;
let userToken: string;
let adminToken: string;
const APP = 'coming-soon';
const conversations = `/apps/${APP}/agents/conversations`;
const replies: string[] = [];

/** A test responder: echoes, stays silent on "quiet", fails on "fail". */
const responder: AgentResponder = async ({ message }) => {
  if (message.content === 'quiet') return null;
  if (message.content === 'fail') throw new Error('responder failure');
  replies.push(message.content);
  return { content: `echo: ${message.content}` };
};

beforeAll(async () => {
  emulator = await startTestEmulator({ responder });
  api = apiClient(emulator);
  userToken = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
  adminToken = await loginToken(emulator, APP, SEEDED_ACCOUNTS.admin.email);
});
afterAll(() => emulator.close());

async function waitForMessages(id: string, count: number, token: string): Promise<Json[]> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { body } = await api('GET', `${conversations}/${id}`, { token });
    const messages = body.messages as Json[];
    if (messages.length >= count) return messages;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`conversation ${id} never reached ${count} messages`);
}

describe('agent conversations', () => {
  it('creates, lists and reads a conversation', async () => {
    const created = await api('POST', conversations, {
      json: { agent_name: 'helper', metadata: { topic: 'launch' } },
      token: userToken,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      agent_name: 'helper',
      messages: [],
      metadata: { topic: 'launch' },
      created_by: 'user@example.com',
    });
    const listed = await api<Json[]>('GET', conversations, { token: userToken });
    expect(listed.body.map((conversation) => conversation.id)).toContain(created.body.id);
    const read = await api('GET', `${conversations}/${created.body.id as string}`, { token: userToken });
    expect(read.body).toEqual(created.body);
  });

  it("stores an added user message and appends the responder's assistant reply", async () => {
    const { body: conversation } = await api('POST', conversations, {
      json: { agent_name: 'helper' },
      token: userToken,
    });
    const id = conversation.id as string;
    const added = await api('POST', `${conversations}/${id}/messages`, {
      json: { role: 'user', content: 'hello there' },
      token: userToken,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ role: 'user', content: 'hello there', id: expect.any(String) });
    const messages = await waitForMessages(id, 2, userToken);
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'hello there'],
      ['assistant', 'echo: hello there'],
    ]);
  });

  it("accepts the public SDK's v2 message path", async () => {
    const { body: conversation } = await api('POST', conversations, {
      json: { agent_name: 'helper' },
      token: userToken,
    });
    const added = await api('POST', `${conversations}/v2/${conversation.id as string}/messages`, {
      json: { content: 'via v2' },
      token: userToken,
    });
    expect(added.status).toBe(201);
    expect(await waitForMessages(conversation.id as string, 2, userToken)).toHaveLength(2);
  });

  it('keeps a silent or failing responder from adding anything', async () => {
    const { body: conversation } = await api('POST', conversations, {
      json: { agent_name: 'helper' },
      token: userToken,
    });
    const id = conversation.id as string;
    await api('POST', `${conversations}/${id}/messages`, { json: { content: 'quiet' }, token: userToken });
    await api('POST', `${conversations}/${id}/messages`, { json: { content: 'fail' }, token: userToken });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { body } = await api('GET', `${conversations}/${id}`, { token: userToken });
    expect((body.messages as Json[]).map((message) => message.content)).toEqual(['quiet', 'fail']);
  });

  it("hides other users' conversations (404) but shows them to admins", async () => {
    const { body: conversation } = await api('POST', conversations, {
      json: { agent_name: 'private' },
      token: adminToken,
    });
    const path = `${conversations}/${conversation.id as string}`;
    expect((await api('GET', path, { token: userToken })).status).toBe(404);
    expect((await api('POST', `${path}/messages`, { json: { content: 'x' }, token: userToken })).status).toBe(404);
    const userList = await api<Json[]>('GET', conversations, { token: userToken });
    expect(userList.body.map((entry) => entry.id)).not.toContain(conversation.id);
    const { body: own } = await api('POST', conversations, { json: { agent_name: 'mine' }, token: userToken });
    expect((await api('GET', `${conversations}/${own.id as string}`, { token: adminToken })).status).toBe(200);
  });

  it('refuses visitors (401), bad agent names, bad messages and assistant messages from users (400)', async () => {
    expect((await api('GET', conversations)).status).toBe(401);
    expect((await api('POST', conversations, { json: { agent_name: 'x' } })).status).toBe(401);
    expect((await api('POST', conversations, { json: { agent_name: '../x' }, token: userToken })).status).toBe(400);
    expect((await api('POST', conversations, { json: {}, token: userToken })).status).toBe(400);
    const { body: conversation } = await api('POST', conversations, {
      json: { agent_name: 'helper' },
      token: userToken,
    });
    const messages = `${conversations}/${conversation.id as string}/messages`;
    for (const json of [
      { content: '' },
      { content: 5 },
      { role: 'assistant', content: 'fake' },
      { role: 'robot', content: 'x' },
      { content: 'x', file_urls: 'nope' },
    ]) {
      expect((await api('POST', messages, { json, token: userToken })).status).toBe(400);
    }
    expect(
      (await api('GET', `${conversations}/${conversation.id as string}`, { token: userToken })).body.messages,
    ).toEqual([]);
    const fromService = await api('POST', messages, {
      json: { role: 'assistant', content: 'official' },
      token: serviceTokenFor(APP),
    });
    expect(fromService.status).toBe(201);
  });

  it('answers the WhatsApp connect link with a page saying it is not available locally', async () => {
    const response = await fetch(`${emulator.url}/api/apps/${APP}/agents/helper/whatsapp?token=${userToken}`);
    expect(response.status).toBe(501);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('WhatsApp is not available locally');
  });
});

describe('the default responder', () => {
  it('says it is the local emulator', async () => {
    const plain = await startTestEmulator();
    try {
      const call = apiClient(plain);
      const token = await loginToken(plain, APP, SEEDED_ACCOUNTS.user.email);
      const { body: conversation } = await call('POST', conversations, { json: { agent_name: 'concierge' }, token });
      await call('POST', `${conversations}/${conversation.id as string}/messages`, { json: { content: 'hi' }, token });
      let messages: Json[] = [];
      for (let attempt = 0; attempt < 100 && messages.length < 2; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        messages = (await call('GET', `${conversations}/${conversation.id as string}`, { token })).body
          .messages as Json[];
      }
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        content: expect.stringContaining('local platform emulator'),
      });
      expect(messages[1]?.content).toContain('"concierge"');
    } finally {
      await plain.close();
    }
  });
});

describe('app logs', () => {
  const logs = `/app-logs/${APP}`;

  it('stores a visit per user and page, and lists it newest first for admins', async () => {
    for (const page of ['ComingSoon', 'About', 'ComingSoon']) {
      const { status, body } = await api('POST', `${logs}/log-user-in-app/${page}`, { token: userToken });
      expect(status).toBe(200);
      expect(body).toMatchObject({ page_name: page, user_id: 'user-user', user_email: 'user@example.com' });
    }
    await api('POST', `${logs}/log-user-in-app/ComingSoon`, { token: adminToken });
    const listed = await api<Json[]>('GET', logs, { token: adminToken });
    expect(listed.body.map((visit) => [visit.user_id, visit.page_name])).toEqual([
      ['user-admin', 'ComingSoon'],
      ['user-user', 'ComingSoon'],
      ['user-user', 'About'],
      ['user-user', 'ComingSoon'],
    ]);
    const filtered = await api<Json[]>('GET', `${logs}?page_name=About`, { token: serviceTokenFor(APP) });
    expect(filtered.body).toHaveLength(1);
    const stored = await api<Json[]>('GET', `/_emulator/apps/${APP}/page-visits`);
    expect(stored.body).toHaveLength(4);
  });

  it('summarises visits per page in the stats', async () => {
    const { status, body } = await api('GET', `${logs}/stats`, { token: adminToken });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      total_visits: 4,
      unique_users: 2,
      pages: [
        { page_name: 'ComingSoon', visits: 3, unique_users: 2 },
        { page_name: 'About', visits: 1, unique_users: 1 },
      ],
    });
  });

  it('refuses visitors (401), users reading logs (403) and bad parameters (400), storing nothing', async () => {
    expect((await api('POST', `${logs}/log-user-in-app/ComingSoon`)).status).toBe(401);
    expect((await api('GET', logs, { token: userToken })).status).toBe(403);
    expect((await api('GET', `${logs}/stats`, { token: userToken })).status).toBe(403);
    expect((await api('GET', `${logs}?limit=lots`, { token: adminToken })).status).toBe(400);
    expect((await api('POST', `${logs}/log-user-in-app/${'x'.repeat(201)}`, { token: userToken })).status).toBe(400);
    expect((await api<Json[]>('GET', `/_emulator/apps/${APP}/page-visits`)).body).toHaveLength(4);
  });
});
