/** Seldom-used calls loaded on first use: inviting users under the reference's `users` module. */
import { invalidArgument } from '../core/errors';
import type { CallOptions, ModuleContext } from '../core/transport';
import { apiPath } from '../core/validate';

export function createUsersModule({ transport, appId }: ModuleContext) {
  return {
    async inviteUser(userEmail: string, role: 'user' | 'admin', options?: CallOptions): Promise<unknown> {
      if (role !== 'user' && role !== 'admin') {
        throw invalidArgument(`Invalid role: "${String(role)}". Role must be either "user" or "admin".`);
      }
      return transport.request(
        {
          method: 'POST',
          path: apiPath`/apps/${appId}/runtime/users/invite-user`,
          body: { user_email: userEmail, role },
        },
        options,
      );
    },
  };
}
