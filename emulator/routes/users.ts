import { accountById, issueAccessToken, memberOf, requireEmail, requireRole } from '../auth/accounts';
import { authorize, requireAdmin } from '../auth/caller';
import { forbidden, notFound, unauthenticated } from '../core/errors';
import type { Account, AppConfig } from '../core/types';
import { readJsonObject } from '../http/body';
import { jsonReply, type Reply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { inviteMember } from '../records/users';

/** Inviting users (admins and the service role) and SSO tokens (service role). */

async function inviteUser(context: EmulatorContext, request: RouteRequest): Promise<Reply> {
  const { app, caller } = authorize(context, request.params.appId as string, request.headers);
  requireAdmin(caller);
  const body = await readJsonObject(request.raw, context.bodyLimitBytes);
  const email = requireEmail(body.user_email, 'user_email');
  const role = requireRole(body.role);
  return jsonReply(200, await inviteMember(context, app, caller, email, role));
}

export function registerUserRoutes(router: Router, context: EmulatorContext): void {
  // The spec's path and the one the public @base44/sdk users module calls.
  router.add('POST', '/api/apps/:appId/users/invite-user', (request) => inviteUser(context, request));
  router.add('POST', '/api/apps/:appId/runtime/users/invite-user', (request) => inviteUser(context, request));

  router.add('GET', '/api/apps/:appId/auth/sso/accesstoken/:userId', (request) => {
    const { app, account } = ssoSubject(context, request);
    return jsonReply(200, { access_token: issueAccessToken(context, app, account, null) });
  });

  // sso.getIdToken: the reference reads the response body itself as the token string.
  router.add('GET', '/api/apps/:appId/auth/sso/idtoken/:userId', (request) => {
    const { app, account } = ssoSubject(context, request);
    const member = memberOf(context, app, account.id);
    const name = typeof member?.full_name === 'string' ? member.full_name : account.full_name;
    return jsonReply(
      200,
      context.tokens.signIdToken({ iss: context.baseUrl(), aud: app.id, sub: account.id, email: account.email, name }),
    );
  });
}

/** SSO tokens are issued to the service role only, for users of the app. */
function ssoSubject(context: EmulatorContext, request: RouteRequest): { app: AppConfig; account: Account } {
  const { app, caller } = authorize(context, request.params.appId as string, request.headers);
  if (caller.kind === 'anonymous') throw unauthenticated();
  if (caller.kind !== 'service')
    throw forbidden('SSO tokens are only issued to the service role', 'service_role_required');
  const userId = request.params.userId as string;
  const account = accountById(context, userId);
  if (!account || !memberOf(context, app, userId))
    throw notFound(`User ${userId.slice(0, 100)} not found in this app`, 'user_not_found');
  return { app, account };
}
