/**
 * Entities against the emulator: the shared CRUD suite for a signed-in user and for the service
 * role, plus what differs between them.
 */
import { createClient } from '@/lib/sdk/client/create-client';
import { isPlatformError } from '@/lib/sdk/core/errors';
import { SEEDED_ACCOUNTS, SEEDED_APPS } from '@/tests/support/emulator';

import { describeEntityCrud, type Note } from './entity-crud-suite';
import {
  clientFor,
  rejectionOf,
  serviceClient,
  signedInClient,
  startEmulatorForSuite,
  type TestClient,
} from './harness';

const platform = startEmulatorForSuite();
let user: TestClient;
let service: TestClient;
beforeAll(async () => {
  user = await signedInClient(platform, SEEDED_ACCOUNTS.user.email);
  service = serviceClient(platform);
});

describeEntityCrud('signed-in user', () => ({
  notes: () => user.entity<Note>('UserNote'),
  createdBy: SEEDED_ACCOUNTS.user.email,
}));
describeEntityCrud('service role', () => ({
  notes: () => service.asServiceRole.entity<Note>('ServiceNote'),
  createdBy: 'server@server.com',
}));

describe('entities: typed access and permissions', () => {
  it('entities.<Name> and entity(name) address the same collection', async () => {
    const typed = createClient<{ Memo: { text: string } }>({
      serverUrl: platform.url,
      appId: SEEDED_APPS.public,
      token: user.getToken(),
    });
    const created = await typed.entities.Memo.create({ text: 'hello' });
    expect(await typed.entity<{ text: string }>('Memo').get(created.id)).toEqual(created);
    await typed.entities.Memo.delete(created.id);
  });

  it('visitors may read a public app but not write: 401 from the server', async () => {
    const anonymous = clientFor(platform);
    expect(Array.isArray(await anonymous.entities.Board.list())).toBe(true);
    const error = await rejectionOf(anonymous.entities.Board.create({ title: 'x' }));
    expect(isPlatformError(error) && error.status).toBe(401);
  });

  it('the service role sees every user; a user sees only itself', async () => {
    const everyone = await service.asServiceRole.entities.User.list();
    expect(everyone.map((record) => record.email).sort()).toEqual([
      SEEDED_ACCOUNTS.admin.email,
      SEEDED_ACCOUNTS.user.email,
    ]);
    const own = await user.entities.User.list();
    expect(own.map((record) => record.email)).toEqual([SEEDED_ACCOUNTS.user.email]);
  });

  it('an invalid entity name is refused by the server with its message', async () => {
    const error = await rejectionOf(user.entity('9bad').list());
    expect(isPlatformError(error) && [error.status, error.code]).toEqual([400, 'invalid_entity']);
  });
});
