import type { IncomingHttpHeaders } from 'node:http';

import { accessDenied, forbidden, invalidInput, notFound, unauthenticated } from '../core/errors';
import {
  SERVICE_ROLE,
  type Account,
  type AppConfig,
  type EntityRecord,
  type StoredConversation,
  type UserRole,
} from '../core/types';
import { equalsConfiguredSecret } from '../credentials/tokens';
import type { EmulatorContext } from '../instance/context';
import { accountById, memberOf } from './accounts';

/**
 * Who is calling: nobody, the app's service role, or an account (with its `User` record in this app,
 * if it has one). Deciding this in one place keeps every route's permission checks the same.
 */
export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'service' }
  | { kind: 'user'; account: Account; member: EntityRecord | null; role: UserRole; sessionId: string | null };

export function requireApp(context: EmulatorContext, appId: string): AppConfig {
  const app = context.apps.get(appId);
  if (!app) throw notFound(`App ${appId.slice(0, 100)} not found`, 'app_not_found');
  return app;
}

/** The bearer token of a request; null without one. A malformed Authorization header is a 401. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  if (header === undefined || header === '') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw unauthenticated('The Authorization header must be "Bearer <token>"', 'invalid_token');
  return match[1] as string;
}

/** Socket handshakes send the literal strings "undefined"/"null" when a client has no token. */
export function normaliseToken(token: unknown): string | null {
  if (typeof token !== 'string') return null;
  const trimmed = token.trim();
  return trimmed === '' || trimmed === 'undefined' || trimmed === 'null' ? null : trimmed;
}

/** Resolves a token for an app; null = the token is not valid here (bad, expired, revoked, other app). */
export function callerFromToken(context: EmulatorContext, app: AppConfig, token: string | null): Caller | null {
  if (token === null) return { kind: 'anonymous' };
  if (equalsConfiguredSecret(token, app.serviceToken)) return { kind: 'service' };
  const claims = context.tokens.verify(token);
  if (!claims || claims.app_id !== app.id) return null;
  if (claims.sid !== undefined && context.sessions.isEnded(claims.sid)) return null;
  const account = accountById(context, claims.sub);
  if (!account || account.token_version !== claims.ver) return null;
  const member = memberOf(context, app, account.id);
  // In apps that admit any account, a missing User record means an admin deleted this user.
  if (!member && app.access !== 'registered_only') return null;
  return accountCaller(account, member, claims.sid ?? null);
}

/** An account as the caller, with its `User` record in the app (if any): its role comes from there. */
export function accountCaller(account: Account, member: EntityRecord | null, sessionId: string | null): Caller {
  const role: UserRole = member?.role === 'admin' ? 'admin' : 'user';
  return { kind: 'user', account, member, role, sessionId };
}

export function resolveCaller(context: EmulatorContext, app: AppConfig, headers: IncomingHttpHeaders): Caller {
  const caller = callerFromToken(context, app, bearerToken(headers));
  if (!caller) throw unauthenticated('The access token is invalid or has expired', 'invalid_token');
  return caller;
}

/** The app's access mode, enforced with the reasons the site's auth shell understands. */
export function checkAppAccess(app: AppConfig, caller: Caller): void {
  if (app.access === 'public' || caller.kind === 'service') return;
  if (caller.kind === 'anonymous') throw accessDenied('auth_required');
  if (app.access === 'registered_only' && !caller.member) throw accessDenied('user_not_registered');
}

/** The platform clients also send the app id as a header; a mismatch means a misconfigured client. */
export function checkAppHeader(headers: IncomingHttpHeaders, appId: string): void {
  const header = headers['x-app-id'];
  if (typeof header === 'string' && header !== '' && header !== appId) {
    throw invalidInput(
      `The X-App-Id header (${header.slice(0, 100)}) does not match the app in the path (${appId})`,
      'app_id_mismatch',
    );
  }
}

/** App lookup, header check, caller and access mode: the preamble of every app-scoped route. */
export function authorize(
  context: EmulatorContext,
  appId: string,
  headers: IncomingHttpHeaders,
): { app: AppConfig; caller: Caller } {
  const app = requireApp(context, appId);
  checkAppHeader(headers, appId);
  const caller = resolveCaller(context, app, headers);
  checkAppAccess(app, caller);
  return { app, caller };
}

export function requireSignedIn(caller: Caller): asserts caller is Exclude<Caller, { kind: 'anonymous' }> {
  if (caller.kind === 'anonymous') throw unauthenticated();
}

export function requireUser(caller: Caller): Extract<Caller, { kind: 'user' }> {
  if (caller.kind === 'anonymous') throw unauthenticated();
  if (caller.kind !== 'user') throw forbidden('This call needs a user token, not the service role', 'user_required');
  return caller;
}

export function requireAdmin(caller: Caller): void {
  if (caller.kind === 'anonymous') throw unauthenticated();
  if (caller.kind === 'user' && caller.role !== 'admin') {
    throw forbidden('This call needs an admin or the service role', 'admin_required');
  }
}

export function isPrivileged(caller: Caller): boolean {
  return caller.kind === 'service' || (caller.kind === 'user' && caller.role === 'admin');
}

/** The `created_by` stamp: the user's e-mail, the service role's address, null for visitors. */
export function creatorOf(caller: Caller): string | null {
  if (caller.kind === 'user') return caller.account.email;
  return caller.kind === 'service' ? SERVICE_ROLE.email : null;
}

/** The `created_by_id` stamp: the user's id, the service role's id, null for visitors. */
export function creatorIdOf(caller: Caller): string | null {
  if (caller.kind === 'user') return caller.account.id;
  return caller.kind === 'service' ? SERVICE_ROLE.id : null;
}

/** The `created_by_id` of a conversation: the account's id, or the service role's. */
export function conversationOwnerId(caller: Exclude<Caller, { kind: 'anonymous' }>): string {
  return creatorIdOf(caller) as string;
}

/** Users see their own conversations, admins and the service role all of them; visitors none. */
export function maySeeConversation(caller: Caller, conversation: StoredConversation): boolean {
  if (caller.kind === 'anonymous') return false;
  return isPrivileged(caller) || conversation.created_by_id === conversationOwnerId(caller);
}
