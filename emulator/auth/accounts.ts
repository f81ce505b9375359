import { randomBytes } from 'node:crypto';

import { invalidInput } from '../core/errors';
import {
  SERVICE_ROLE,
  USER_ENTITY,
  type Account,
  type AppConfig,
  type EntityRecord,
  type ResetTicket,
  type UserRole,
} from '../core/types';
import { sha256Hex } from '../credentials/tokens';
import type { EmulatorContext } from '../instance/context';
import { newId, type StoreChange } from '../store/store';

/**
 * Accounts (identities across apps), their tickets and the lookup of an account's `User` record in
 * an app; membership changes (joining, invitations) are record writes: records/users.ts.
 */

export const RESET_TTL_MS = 60 * 60 * 1000;
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Live tickets per account: asking again replaces the oldest, so requests cannot pile them up. */
export const MAX_TICKETS_PER_ACCOUNT = 3;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Any valid e-mail address, trimmed and lower-cased (a mail's recipient, say). */
export function requireEmailAddress(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalidInput(`${field} must be a string`, 'invalid_email');
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email))
    throw invalidInput(`${field} is not a valid e-mail address`, 'invalid_email');
  return email;
}

/** The address of an account: a valid address other than the service role's, which no account may take. */
export function requireEmail(value: unknown, field = 'email'): string {
  const email = requireEmailAddress(value, field);
  if (email === SERVICE_ROLE.email)
    throw invalidInput(
      `${email} names the service role on the records it creates; no account may use it`,
      'reserved_email',
    );
  return email;
}

export function requireString(value: unknown, field: string, maxLength = 1000): string {
  if (typeof value !== 'string' || value.length === 0)
    throw invalidInput(`${field} must be a non-empty string`, 'invalid_field');
  if (value.length > maxLength)
    throw invalidInput(`${field} may have at most ${maxLength} characters`, 'invalid_field');
  return value;
}

export function optionalString(value: unknown, field: string, maxLength = 1000): string | undefined {
  return value === undefined || value === null ? undefined : requireString(value, field, maxLength);
}

export function requireRole(value: unknown): UserRole {
  if (value !== 'admin' && value !== 'user') throw invalidInput('role must be "user" or "admin"', 'invalid_role');
  return value;
}

/** A new account, not stored yet (a change stores it: `addAccount`). */
export function newAccount(
  context: EmulatorContext,
  email: string,
  fullName: string,
  passwordHash: string | null,
): Account {
  return {
    id: newId(),
    email,
    full_name: fullName,
    password_hash: passwordHash,
    email_verified: false,
    token_version: 0,
    created_date: context.nowIso(),
  };
}

/*
 * Every lookup by an id, e-mail or ticket hash goes through the store's maps: a key planted on
 * Object.prototype (or a key such as `__proto__`) can never stand in for a stored account,
 * membership, code or ticket.
 */

export function accountById(context: EmulatorContext, accountId: string): Account | undefined {
  return context.store.account(accountId);
}

export function memberOf(context: EmulatorContext, app: AppConfig, accountId: string): EntityRecord | null {
  return context.store.record(app.id, USER_ENTITY, accountId) ?? null;
}

/** The stored ticket for a presented ticket (looked up by its hash), if it exists. */
export function ticketFor(context: EmulatorContext, ticket: string): ResetTicket | undefined {
  return context.store.ticket(sha256Hex(ticket));
}

/** An access token; `sessionId` ties it to a login session that logout can end. */
export function issueAccessToken(
  context: EmulatorContext,
  app: AppConfig,
  account: Account,
  sessionId: string | null,
): string {
  return context.tokens.sign(app.id, account.id, account.token_version, sessionId);
}

/**
 * A single-use ticket for setting a password, staged into `change`; only its hash is stored.
 * Expired tickets are purged here, and an account keeps at most MAX_TICKETS_PER_ACCOUNT (the
 * oldest go), so the tickets held stay proportional to the accounts, however often a reset is
 * requested.
 */
export function issueTicket(
  context: EmulatorContext,
  change: StoreChange,
  app: AppConfig,
  account: Account,
  purpose: 'reset' | 'invite',
): string {
  const now = context.now();
  const own: [string, ResetTicket][] = [];
  for (const [hash, held] of context.store.tickets()) {
    if (held.expires_at <= now) change.dropTicket(hash);
    else if (held.account_id === account.id) own.push([hash, held]);
  }
  own.sort((left, right) => left[1].expires_at - right[1].expires_at);
  for (const [hash] of own.slice(0, Math.max(0, own.length - MAX_TICKETS_PER_ACCOUNT + 1))) change.dropTicket(hash);
  const ticket = randomBytes(32).toString('base64url');
  change.putTicket(sha256Hex(ticket), {
    account_id: account.id,
    app_id: app.id,
    expires_at: now + (purpose === 'invite' ? INVITE_TTL_MS : RESET_TTL_MS),
    purpose,
  });
  return ticket;
}

/** Stages dropping every ticket of the account (its password was just set). */
export function dropTicketsOf(context: EmulatorContext, change: StoreChange, accountId: string): void {
  for (const [hash, ticket] of context.store.tickets()) {
    if (ticket.account_id === accountId) change.dropTicket(hash);
  }
}
