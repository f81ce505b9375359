import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { RunningEmulator } from '@/emulator/core/types';
import { loginToken, SEEDED_ACCOUNTS, SEEDED_APPS, startTestEmulator } from '@/tests/support/emulator';

import { apiClient, type ApiCall, type Json } from '../api';

/**
 * The depth, reserved-name and size limits of entity records also hold for every other piece of
 * caller-supplied JSON the emulator keeps: conversation metadata and messages (persisted with a data
 * dir) and analytics events (kept in memory, read back by the helper). Before, a value nested
 * 200,000 levels deep was accepted and then broke every later write of the app's conversations
 * (or every read of the analytics helper), because serialising it overflows the stack.
 */

const APP: string = SEEDED_APPS.public;
const conversations = `/apps/${APP}/agents/conversations`;
const DEPTH = 200_000;
const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const overOneMiB = 'x'.repeat(1024 * 1024 + 1);

let dataDir: string;
let emulator: RunningEmulator;
let api: ApiCall;
let token: string;

const start = async () => {
  emulator = await startTestEmulator({ dataDir });
  api = apiClient(emulator);
  token = await loginToken(emulator, APP, SEEDED_ACCOUNTS.user.email);
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'emulator-json-limits-'));
  await start();
});
afterAll(async () => {
  await emulator.close();
  await rm(dataDir, { recursive: true, force: true });
});

const rawPost = (pathName: string, body: string) =>
  api('POST', pathName, { body, headers: { 'Content-Type': 'application/json' }, token });

/** The user's messages (the default responder adds assistant replies in the background). */
const userMessages = (conversation: Json) =>
  (conversation.messages as Json[]).filter((message) => message.role === 'user').map((message) => message.content);

const conversationIds = async () =>
  (await api<Json[]>('GET', conversations, { token })).body.map((conversation) => conversation.id);

describe('agent conversation metadata', () => {
  it('answers metadata nested 200,000 levels deep with 400, stores nothing and keeps later writes durable', async () => {
    const before = await conversationIds();
    const refused = await rawPost(conversations, `{"agent_name":"helper","metadata":{"v":${deepObject}}}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'too_deep' });
    expect(await conversationIds()).toEqual(before);

    const later = await api('POST', conversations, {
      json: { agent_name: 'helper', metadata: { topic: 'after' } },
      token,
    });
    expect(later.status).toBe(201);
    const message = await api('POST', `${conversations}/${later.body.id as string}/messages`, {
      json: { content: 'still writable' },
      token,
    });
    expect(message.status).toBe(201);

    // The later write reached the database: it is there after a restart.
    await emulator.close();
    await start();
    const reread = await api('GET', `${conversations}/${later.body.id as string}`, { token });
    expect(reread.body).toMatchObject({ metadata: { topic: 'after' } });
    expect(userMessages(reread.body)).toEqual(['still writable']);
  });

  it('refuses a reserved name at any depth of metadata (400)', async () => {
    const before = await conversationIds();
    const refused = await rawPost(
      conversations,
      '{"agent_name":"helper","metadata":{"list":[{"__proto__":{"polluted":1}}]}}',
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_field_name' });
    expect(await conversationIds()).toEqual(before);
  });

  it('answers metadata above 1 MiB of JSON with 413 and stores nothing', async () => {
    const before = await conversationIds();
    const refused = await api('POST', conversations, {
      json: { agent_name: 'helper', metadata: { blob: overOneMiB } },
      token,
    });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'record_too_large' });
    expect(await conversationIds()).toEqual(before);
  });
});

describe('agent conversation messages', () => {
  it('answers a message above 1 MiB of JSON with 413 and leaves the conversation unchanged', async () => {
    const { body: conversation } = await api('POST', conversations, { json: { agent_name: 'helper' }, token });
    const messagesPath = `${conversations}/${conversation.id as string}/messages`;
    const refused = await api('POST', messagesPath, { json: { content: 'big', file_urls: [overOneMiB] }, token });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'record_too_large' });
    const later = await api('POST', messagesPath, { json: { content: 'small' }, token });
    expect(later.status).toBe(201);
    const { body } = await api('GET', `${conversations}/${conversation.id as string}`, { token });
    expect(userMessages(body)).toEqual(['small']);
  });
});

describe('analytics batches', () => {
  const batch = `/apps/${APP}/analytics/track/batch`;
  const kept = async () => {
    const reply = await api<Json[]>('GET', `/_emulator/apps/${APP}/analytics`);
    expect(reply.status).toBe(200);
    return reply.body.map((event) => event.event_name);
  };

  it('answers event properties nested 200,000 levels deep with 400, keeps none of the batch and still reports', async () => {
    const before = await kept();
    const refused = await rawPost(
      batch,
      `{"events":[{"event_name":"fine"},{"event_name":"abyss","properties":{"v":${deepObject}}}]}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'too_deep' });
    expect(await kept()).toEqual(before);
    const later = await api('POST', batch, {
      json: { events: [{ event_name: 'after', properties: { ok: true } }] },
      token,
    });
    expect(later.status).toBe(200);
    expect(await kept()).toEqual([...before, 'after']);
  });

  it('answers an event above 1 MiB of JSON with 413 and keeps nothing of it', async () => {
    const before = await kept();
    const refused = await api('POST', batch, {
      json: { events: [{ event_name: 'big', properties: { blob: overOneMiB } }] },
      token,
    });
    expect(refused.status).toBe(413);
    expect(await kept()).toEqual(before);
  });
});
