/**
 * Agents, app logs and public settings against the emulator.
 */
import { isPlatformError } from '@/lib/sdk/core/errors';
import type { AgentConversation } from '@/lib/sdk/core/types';
import { SEEDED_ACCOUNTS, SEEDED_APPS } from '@/tests/support/emulator';

import {
  clientFor,
  eventually,
  rejectionOf,
  serviceClient,
  signedInClient,
  startEmulatorForSuite,
  waitForRoomMembers,
  type TestClient,
} from './harness';

const platform = startEmulatorForSuite();
let user: TestClient;
beforeAll(async () => {
  user = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
});
afterAll(() => user.cleanup());

describe('agents', () => {
  it('creates, lists and reads conversations', async () => {
    const created = await user.agents.createConversation({ agent_name: 'helper', metadata: { topic: 'launch' } });
    expect(created).toMatchObject({ agent_name: 'helper', messages: [], metadata: { topic: 'launch' } });
    expect((await user.agents.listConversations()).map((c) => c.id)).toContain(created.id);
    expect((await user.agents.getConversations()).map((c) => c.id)).toContain(created.id);
    const filtered = await user.agents.listConversations({ q: { agent_name: 'nobody' } });
    expect(filtered).toEqual([]);
    expect(await user.agents.getConversation(created.id)).toEqual(created);
  });

  it('addMessage stores the message; the subscription receives it and the agent reply', async () => {
    const conversation = await user.agents.createConversation({ agent_name: 'helper' });
    const updates: AgentConversation[] = [];
    const stop = user.agents.subscribeToConversation(conversation.id, (next) => updates.push(next));
    try {
      await waitForRoomMembers(platform, `/agent-conversations/${conversation.id}`);
      const message = await user.agents.addMessage(conversation, { role: 'user', content: 'When do you launch?' });
      expect(message).toMatchObject({ role: 'user', content: 'When do you launch?' });
      const withReply = await eventually(() =>
        updates.find((update) => update.messages.some((m) => m.role === 'assistant')),
      );
      expect(withReply.id).toBe(conversation.id);
      expect(withReply.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(withReply).not.toHaveProperty('_message');
      expect((await user.agents.getConversation(conversation.id)).messages).toHaveLength(2);
    } finally {
      stop();
    }
  });

  it("another user's conversation is reported as missing", async () => {
    const admin = await signedInClient(platform, SEEDED_ACCOUNTS.admin.email);
    const mine = await user.agents.createConversation({ agent_name: 'helper' });
    expect(await admin.agents.getConversation(mine.id)).toMatchObject({ id: mine.id });
    const other = await admin.agents.createConversation({ agent_name: 'helper' });
    const error = await rejectionOf(user.agents.getConversation(other.id));
    expect(isPlatformError(error) && error.status).toBe(404);
  });

  it('the WhatsApp link points at the platform page for the agent', async () => {
    const link = user.agents.getWhatsAppConnectURL('helper');
    expect(link).toBe(`${platform.url}/api/apps/${SEEDED_APPS.public}/agents/helper/whatsapp?token=${user.getToken()}`);
    // The emulator serves an explanatory page there; the link itself is not a JSON API call.
    expect((await fetch(link)).status).toBe(501);
  });
});

describe('app logs', () => {
  it('logs page visits of a signed-in user; admins read logs and stats', async () => {
    await user.appLogs.logUserInApp('ComingSoon');
    await user.appLogs.logUserInApp('ComingSoon');
    await user.appLogs.logUserInApp('Über uns');
    const admin = await signedInClient(platform, SEEDED_ACCOUNTS.admin.email);
    const logs = (await admin.appLogs.fetchLogs({ page_name: 'ComingSoon', limit: 10 })) as { page_name: string }[];
    expect(logs).toHaveLength(2);
    expect(logs.every((visit) => visit.page_name === 'ComingSoon')).toBe(true);
    expect(await admin.appLogs.getStats()).toMatchObject({
      total_visits: 3,
      unique_users: 1,
      pages: [
        { page_name: 'ComingSoon', visits: 2 },
        { page_name: 'Über uns', visits: 1 },
      ],
    });
    expect(await serviceClient(platform).asServiceRole.appLogs.getStats({ page_name: 'Über uns' })).toMatchObject({
      total_visits: 1,
    });
  });

  it('visitors cannot log visits and users cannot read logs', async () => {
    expect(isPlatformError(await rejectionOf(clientFor(platform).appLogs.logUserInApp('ComingSoon')))).toBe(true);
    const error = await rejectionOf(user.appLogs.fetchLogs());
    expect(isPlatformError(error) && error.status).toBe(403);
  });
});

describe('public settings', () => {
  it('a public app answers anyone', async () => {
    expect(await clientFor(platform).publicSettings.get()).toMatchObject({
      id: SEEDED_APPS.public,
      public_settings: { requires_auth: false },
    });
  });

  it('a login-only app: 403 auth_required anonymously, settings with a token', async () => {
    const anonymous = await rejectionOf(clientFor(platform, { appId: SEEDED_APPS.loginRequired }).publicSettings.get());
    expect(
      isPlatformError(anonymous) && [anonymous.status, (anonymous.data as { extra_data?: unknown }).extra_data],
    ).toEqual([403, { reason: 'auth_required' }]);
    const member = await signedInClient(platform, SEEDED_ACCOUNTS.user.email, { appId: SEEDED_APPS.loginRequired });
    expect(await member.publicSettings.get()).toMatchObject({ id: SEEDED_APPS.loginRequired });
  });

  it('an invite-only app: 403 user_not_registered for an outsider', async () => {
    const outsider = await signedInClient(platform, SEEDED_ACCOUNTS.outsider.email, {
      appId: SEEDED_APPS.registeredOnly,
    });
    const error = await rejectionOf(outsider.publicSettings.get());
    expect(isPlatformError(error) && [error.status, error.message, error.data]).toEqual([
      403,
      'User not registered for this app',
      expect.objectContaining({ extra_data: { reason: 'user_not_registered' } }),
    ]);
  });
});
