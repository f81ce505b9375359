/**
 * The service-role client against the emulator (its entity CRUD runs in entities.test.ts through the
 * shared suite): integrations, agents, SSO tokens, acting with a signed-in user present.
 */
import { SERVICE_TOKEN_REQUIRED_MESSAGE } from '@/lib/sdk/client/service-role';
import { isPlatformError } from '@/lib/sdk/core/errors';
import { SEEDED_ACCOUNTS, SEEDED_APPS } from '@/tests/support/emulator';

import { clientFor, rejectionOf, serviceClient, signedInClient, startEmulatorForSuite } from './harness';

const platform = startEmulatorForSuite();

describe('asServiceRole', () => {
  it('is refused without a service token, with the spec message, before any request', () => {
    expect(() => clientFor(platform).asServiceRole).toThrow(SERVICE_TOKEN_REQUIRED_MESSAGE);
  });

  it('returns the same modules on every access', () => {
    const client = serviceClient(platform);
    expect(client.asServiceRole).toBe(client.asServiceRole);
  });

  it('sso.getAccessToken issues a token that works as that user', async () => {
    const service = serviceClient(platform);
    const { access_token: token } = (await service.asServiceRole.sso.getAccessToken(SEEDED_ACCOUNTS.user.id)) as {
      access_token: string;
    };
    expect((await clientFor(platform, { token }).auth.me()).email).toBe(SEEDED_ACCOUNTS.user.email);
    const missing = await rejectionOf(service.asServiceRole.sso.getAccessToken('no-such-user'));
    expect(isPlatformError(missing) && missing.status).toBe(404);
  });

  it('reaches a login-only app without any user token', async () => {
    const service = serviceClient(platform, { appId: SEEDED_APPS.loginRequired });
    const created = await service.asServiceRole.entities.Todo.create({ title: 'by service' });
    expect(created.created_by).toBe('server@server.com');
    expect(
      await clientFor(platform, { appId: SEEDED_APPS.loginRequired })
        .entities.Todo.list()
        .catch((e: unknown) => e),
    ).toMatchObject({
      status: 403,
    });
  });

  it('integrations and agents work under the service role', async () => {
    const service = serviceClient(platform);
    await service.asServiceRole.integrations.Core.SendEmail({
      to: 'ops@example.com',
      subject: 'Report',
      body: 'All good',
    });
    expect(platform.emulator.outbox().some((mail) => mail.to === 'ops@example.com')).toBe(true);

    const user = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
    const conversation = await user.agents.createConversation({ agent_name: 'helper' });
    const all = await service.asServiceRole.agents.listConversations();
    expect(all.map((c) => c.id)).toContain(conversation.id);
    const reply = await service.asServiceRole.agents.addMessage(conversation.id, {
      role: 'assistant',
      content: 'From the team',
    });
    expect(reply).toMatchObject({ role: 'assistant' });
  });

  it('keeps working when the client also holds a user token (sent as on-behalf-of)', async () => {
    const user = await signedInClient(platform, SEEDED_ACCOUNTS.user.email, {
      serviceToken: 'service-token-coming-soon',
    });
    const everyone = await user.asServiceRole.entities.User.list();
    expect(everyone.length).toBeGreaterThan(1);
    expect(await user.entities.User.list()).toHaveLength(1);
  });
});
