import {
  accountById,
  dropTicketsOf,
  issueAccessToken,
  issueTicket,
  requireEmail,
  requireString,
  ticketFor,
} from '../auth/accounts';
import { checkAppHeader, requireApp, requireUser, resolveCaller } from '../auth/caller';
import { forbidden, invalidInput } from '../core/errors';
import { hashPassword, requireNewPassword, verifyPassword } from '../credentials/passwords';
import { readJsonObject } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { markVerified } from '../records/users';
import { readAuthBody } from './auth';

/** Password reset (by an e-mailed ticket) and change (by the signed-in user). */

const GENERIC_RESET_ANSWER = {
  message: 'If an account exists for this address, an e-mail with a reset token was sent.',
};

export function registerPasswordRoutes(router: Router, context: EmulatorContext): void {
  router.add('POST', '/api/apps/:appId/auth/reset-password-request', async (request) => {
    const { app, body } = await readAuthBody(context, request);
    const email = requireEmail(body.email);
    const account = context.store.findAccountByEmail(email);
    if (account) {
      await context.store.write((change) => {
        const ticket = issueTicket(context, change, app, account, 'reset');
        context.sendMail(change, app.id, {
          to: account.email,
          subject: `Reset your ${app.name} password`,
          body: `Use this reset token to choose a new password: ${ticket}\nIt expires in one hour. If you did not ask for it, ignore this e-mail.`,
        });
      });
    }
    return jsonReply(200, GENERIC_RESET_ANSWER);
  });

  router.add('POST', '/api/apps/:appId/auth/reset-password', async (request) => {
    const { app, body } = await readAuthBody(context, request);
    const ticket = requireString(body.reset_token, 'reset_token', 200);
    const password = requireNewPassword(body.new_password, 'new_password');
    const stored = ticketFor(context, ticket);
    const account = stored ? accountById(context, stored.account_id) : undefined;
    if (!stored || !account || stored.app_id !== app.id || stored.expires_at <= context.now()) {
      throw invalidInput('The reset token is invalid or has expired', 'invalid_reset_token');
    }
    const hash = await hashPassword(password);
    await context.store.write((change) => {
      // Receiving the e-mail proves the address, which is what verification is for.
      change.setPassword(account.id, hash, { revokeTokens: true, provesEmail: true });
      dropTicketsOf(context, change, account.id);
    });
    await markVerified(context, account);
    return jsonReply(200, { message: 'Your password was changed. You can log in with it now.' });
  });

  router.add('POST', '/api/apps/:appId/auth/change-password', async (request) => {
    const app = requireApp(context, request.params.appId as string);
    checkAppHeader(request.headers, app.id);
    const caller = requireUser(resolveCaller(context, app, request.headers));
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    const userId = requireString(body.user_id, 'user_id', 100);
    const current = requireString(body.current_password, 'current_password', 256);
    const next = requireNewPassword(body.new_password, 'new_password');
    if (userId !== caller.account.id) throw forbidden('You can only change your own password', 'not_own_account');
    if (!(await verifyPassword(current, caller.account.password_hash))) {
      throw invalidInput('The current password is not correct', 'invalid_password');
    }
    const hash = await hashPassword(next);
    // Older tokens stop working; the caller gets a fresh one so it stays logged in.
    await context.store.write((change) =>
      change.setPassword(caller.account.id, hash, { revokeTokens: true, provesEmail: false }),
    );
    const account = accountById(context, caller.account.id) ?? caller.account;
    return jsonReply(200, {
      message: 'Password changed',
      access_token: issueAccessToken(context, app, account, caller.sessionId),
    });
  });
}
