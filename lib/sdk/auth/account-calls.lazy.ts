/**
 * Account calls of the auth module that only send a form to the platform: sign-up, e-mail codes,
 * password reset and change, invitations. Loaded on first call (few pages ever make one). Each
 * checks its required fields before anything is sent.
 */
import type { CallOptions, Transport } from '../core/transport';
import { apiPath, requireText } from '../core/validate';
import type { AccountCalls } from './auth-types';

export function createAccountCalls({ transport, appId }: { transport: Transport; appId: string }): AccountCalls {
  const authPath = (action: string) => `${apiPath`/apps/${appId}/auth`}/${action}`;
  const post = (path: string, body: unknown, options?: CallOptions) =>
    transport.request<unknown>({ method: 'POST', path, body }, options);

  return {
    register: async (payload, options) => post(authPath('register'), payload, options),
    verifyOtp: async ({ email, otpCode }, options) =>
      post(
        authPath('verify-otp'),
        { email: requireText('email', email), otp_code: requireText('otpCode', otpCode) },
        options,
      ),
    resendOtp: async (email, options) => post(authPath('resend-otp'), { email: requireText('email', email) }, options),
    resetPasswordRequest: async (email, options) =>
      post(authPath('reset-password-request'), { email: requireText('email', email) }, options),
    resetPassword: async ({ resetToken, newPassword }, options) =>
      post(
        authPath('reset-password'),
        { reset_token: requireText('resetToken', resetToken), new_password: requireText('newPassword', newPassword) },
        options,
      ),
    changePassword: async ({ userId, currentPassword, newPassword }, options) =>
      post(
        authPath('change-password'),
        {
          user_id: requireText('userId', userId),
          current_password: requireText('currentPassword', currentPassword),
          new_password: requireText('newPassword', newPassword),
        },
        options,
      ),
    inviteUser: async (userEmail, role, options) =>
      post(
        apiPath`/apps/${appId}/users/invite-user`,
        { user_email: requireText('userEmail', userEmail), role },
        options,
      ),
  };
}
