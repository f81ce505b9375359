import { issueAccessToken, newAccount, optionalString, requireEmail, requireString } from '../auth/accounts';
import { accountCaller, checkAppHeader, requireApp } from '../auth/caller';
import { issueOtp, judgeOtp, OTP_TTL_MS, otpWaitMs, tooSoon } from '../auth/otp';
import { conflict, DomainError, invalidInput } from '../core/errors';
import type { Account, AppConfig } from '../core/types';
import { hashPassword, requireNewPassword, verifyPassword } from '../credentials/passwords';
import { sessionCookie } from '../credentials/sessions';
import { readJsonObject } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { joinOnLogin, loginUserView, markVerified } from '../records/users';

/**
 * Registration with an e-mailed one-time code, and login (password reset and change: password-routes.ts). None of these
 * pass the app's access gate: they are how a visitor gets through it.
 */

export async function readAuthBody(
  context: EmulatorContext,
  request: RouteRequest,
): Promise<{ app: AppConfig; body: Record<string, unknown> }> {
  const app = requireApp(context, request.params.appId as string);
  checkAppHeader(request.headers, app.id);
  return { app, body: await readJsonObject(request.raw, context.bodyLimitBytes) };
}

/** Checks credentials; the same 401 for an unknown address and a wrong password. */
export async function authenticate(context: EmulatorContext, email: string, password: string): Promise<Account> {
  const account = context.store.findAccountByEmail(email);
  const valid = await verifyPassword(password, account?.password_hash ?? null);
  if (!account || !valid) throw new DomainError('unauthenticated', 'invalid_credentials', 'Invalid email or password');
  if (!account.email_verified) {
    throw new DomainError('forbidden', 'email_not_verified', 'This e-mail address is not verified yet', {
      extraData: { reason: 'email_not_verified', email: account.email },
    });
  }
  return account;
}

export interface CompletedLogin {
  body: { access_token: string; user: Record<string, unknown> };
  /** Set-Cookie for the login session the token belongs to. */
  cookie: string;
}

/**
 * Logs an account into an app (joining it when the app admits anyone) and answers like the
 * platform. Every login starts a new session; a session cookie the caller sent is never adopted
 * (see auth/sessions.ts).
 */
export async function completeLogin(
  context: EmulatorContext,
  app: AppConfig,
  account: Account,
): Promise<CompletedLogin> {
  const member = await joinOnLogin(context, app, account);
  const sessionId = context.sessions.start();
  return {
    body: {
      access_token: issueAccessToken(context, app, account, sessionId),
      user: loginUserView(context, app, accountCaller(account, member, sessionId), member),
    },
    cookie: sessionCookie(sessionId),
  };
}

/** The refusal of a registration whose address has an account: verified, or awaiting its code. */
function addressTaken(context: EmulatorContext, email: string) {
  if (context.store.findAccountByEmail(email)?.email_verified)
    return invalidInput('A user with this email already exists', 'user_exists');
  return conflict(
    'This address is registered and awaits verification',
    'verification_pending',
    'Enter the e-mailed code (resend-otp sends a new one); the password can be reset afterwards.',
  );
}

/**
 * Registration: an account awaiting the e-mailed code. A registration awaiting its code keeps its
 * password: otherwise whoever registers the address again chooses the password of the account its
 * owner then verifies. The same password only asks for a new code; the owner who forgot it resets
 * it after verifying.
 */
async function register(context: EmulatorContext, request: RouteRequest) {
  const { app, body } = await readAuthBody(context, request);
  const email = requireEmail(body.email);
  const password = requireNewPassword(body.password, 'password');
  const fullName = optionalString(body.full_name, 'full_name', 200) ?? email.split('@')[0] ?? email;
  const existing = context.store.findAccountByEmail(email);
  // 400 and this text, as the vendor's backend answers (the platform's FastAPI HTTPException).
  if (existing?.email_verified) throw invalidInput('A user with this email already exists', 'user_exists');
  const pendingPassword = existing?.password_hash ?? null;
  if (pendingPassword !== null && !(await verifyPassword(password, pendingPassword)))
    throw addressTaken(context, email);
  const wait = otpWaitMs(context, email);
  if (wait > 0) throw tooSoon('A verification code was sent recently; wait before asking again', 'otp_throttled', wait);
  // An invited account that never set a password: this registration sets it (and its name).
  const hash = !existing || pendingPassword === null ? await hashPassword(password) : null;
  const account = existing ?? newAccount(context, email, fullName, hash);
  await context.store.write((change) => {
    // Hashing let other requests run: one may have registered or verified the address meanwhile.
    // Answer as if it had come first, or both would create an account (or both set the password).
    if (context.store.findAccountByEmail(email) !== existing) throw addressTaken(context, email);
    if (!existing) change.addAccount(account);
    else if (hash !== null) {
      change.setPassword(existing.id, hash, { revokeTokens: false, provesEmail: false });
      change.renameAccount(existing.id, fullName);
    }
    issueOtp(context, change, app, email);
  });
  // The platform's answer, as the vendor's backend gives it: the user's id and how long the code lives.
  return jsonReply(200, {
    id: account.id,
    message: 'Registration successful. Please check your email for the verification code.',
    otp_expires_in_minutes: OTP_TTL_MS / 60_000,
  });
}

export function registerAuthRoutes(router: Router, context: EmulatorContext): void {
  router.add('POST', '/api/apps/:appId/auth/login', async (request) => {
    const { app, body } = await readAuthBody(context, request);
    const email = requireEmail(body.email);
    const password = requireString(body.password, 'password', 256);
    optionalString(body.turnstile_token, 'turnstile_token', 4096);
    const account = await authenticate(context, email, password);
    const login = await completeLogin(context, app, account);
    return jsonReply(200, { ...login.body, success: true }, { 'Set-Cookie': login.cookie });
  });

  router.add('POST', '/api/apps/:appId/auth/register', (request) => register(context, request));

  router.add('POST', '/api/apps/:appId/auth/verify-otp', async (request) => {
    const { app, body } = await readAuthBody(context, request);
    const email = requireEmail(body.email);
    const code = requireString(
      typeof body.otp_code === 'number' ? String(body.otp_code) : body.otp_code,
      'otp_code',
      20,
    );
    const account = context.store.findAccountByEmail(email);
    if (!account) throw invalidInput('There is no pending verification code for this e-mail address', 'otp_not_found');
    // A wrong guess counts even when the answer is an error: it is stored before the answer.
    const refused = await context.store.write((change) => {
      const error = judgeOtp(context, change, app, email, code);
      if (error === null) change.verifyEmail(account.id);
      return error;
    });
    if (refused) throw refused;
    const verified = context.store.account(account.id) ?? account;
    await markVerified(context, verified);
    const login = await completeLogin(context, app, verified);
    // The platform's answer, as the vendor's backend gives it (the SDK then logs in as documented).
    const answer = {
      id: verified.id,
      access_token: login.body.access_token,
      message: 'Email verified successfully. You are now logged in.',
      success: true,
    };
    return jsonReply(200, answer, { 'Set-Cookie': login.cookie });
  });

  router.add('POST', '/api/apps/:appId/auth/resend-otp', async (request) => {
    const { app, body } = await readAuthBody(context, request);
    const email = requireEmail(body.email);
    const account = context.store.findAccountByEmail(email);
    // Same answer whether or not the address is known, so the endpoint cannot probe for accounts.
    // A code asked for too soon is not sent, with the same answer (see auth/otp.ts for the budget).
    if (account && !account.email_verified && otpWaitMs(context, email) === 0)
      await context.store.write((change) => issueOtp(context, change, app, email));
    return jsonReply(200, { message: 'If the address is awaiting verification, a new code was sent.' });
  });
}
