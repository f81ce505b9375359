import { randomBytes } from 'node:crypto';

import type { EmulatorContext } from '../context';
import { invalidInput } from '../core/errors';
import { newId } from '../store/store';
import type { Account, AppConfig, EntityRecord, ResetTicket, UserRole } from '../types';
import { ownValue } from '../util/own';
import { sha256Hex } from './tokens';

/** Account and membership operations shared by the auth routes, the login page and invitations. */

export const RESET_TTL_MS = 60 * 60 * 1000;
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Live tickets per account: asking again replaces the oldest, so requests cannot pile them up. */
export const MAX_TICKETS_PER_ACCOUNT = 3;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireEmail(value: unknown, field = 'email'): string {
  if (typeof value !== 'string') throw invalidInput(`${field} must be a string`, 'invalid_email');
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email))
    throw invalidInput(`${field} is not a valid e-mail address`, 'invalid_email');
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

export function createAccount(
  context: EmulatorContext,
  email: string,
  fullName: string,
  passwordHash: string | null,
): Account {
  const account: Account = {
    id: newId(),
    email,
    full_name: fullName,
    password_hash: passwordHash,
    email_verified: false,
    token_version: 0,
    created_date: context.nowIso(),
  };
  context.store.data.accounts[account.id] = account;
  return account;
}

/*
 * Every lookup by an id, e-mail or ticket hash goes through these own-property reads: a key planted
 * on Object.prototype (or a key such as `__proto__`) can never stand in for a stored account,
 * membership, code or ticket.
 */

export function accountById(context: EmulatorContext, accountId: string): Account | undefined {
  return ownValue(context.store.data.accounts, accountId);
}

export function memberOf(context: EmulatorContext, app: AppConfig, accountId: string): EntityRecord | null {
  const users = ownValue(ownValue(context.store.data.apps, app.id)?.entities, 'User');
  return ownValue(users, accountId) ?? null;
}

/** The stored ticket for a presented ticket (looked up by its hash), if it exists. */
export function ticketFor(context: EmulatorContext, ticket: string): ResetTicket | undefined {
  return ownValue(context.store.data.reset_tickets, sha256Hex(ticket));
}

/** Adds the account to the app's users; returns the record and whether it is new. */
export function ensureMember(
  context: EmulatorContext,
  app: AppConfig,
  account: Account,
  role: UserRole,
  createdBy: string | null,
): { record: EntityRecord; created: boolean } {
  const existing = memberOf(context, app, account.id);
  if (existing) return { record: existing, created: false };
  const now = context.nowIso();
  const record: EntityRecord = {
    id: account.id,
    email: account.email,
    full_name: account.full_name,
    role,
    created_date: now,
    updated_date: now,
    created_by: createdBy,
  };
  context.store.collection(app.id, 'User')[account.id] = record;
  return { record, created: true };
}

/** Apps that admit any account make a member on first login; registered-only apps never do. */
export function joinOnLogin(
  context: EmulatorContext,
  app: AppConfig,
  account: Account,
): { record: EntityRecord | null; created: boolean } {
  if (app.access === 'registered_only') return { record: memberOf(context, app, account.id), created: false };
  return ensureMember(context, app, account, 'user', account.email);
}

/** The user object of a login response: the app's User record, or the bare profile of a non-member. */
export function userView(account: Account, member: EntityRecord | null): Record<string, unknown> {
  if (member) return member;
  return {
    id: account.id,
    email: account.email,
    full_name: account.full_name,
    role: 'user',
    created_date: account.created_date,
  };
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
 * A single-use ticket for setting a password; only its hash is stored. Expired tickets are purged
 * here, and an account keeps at most MAX_TICKETS_PER_ACCOUNT (the oldest go), so the tickets held
 * stay proportional to the accounts, however often a reset is requested.
 */
export function issueTicket(
  context: EmulatorContext,
  app: AppConfig,
  account: Account,
  purpose: 'reset' | 'invite',
): string {
  const tickets = context.store.data.reset_tickets;
  const now = context.now();
  const own: [string, ResetTicket][] = [];
  for (const [hash, held] of Object.entries(tickets)) {
    if (held.expires_at <= now) delete tickets[hash];
    else if (held.account_id === account.id) own.push([hash, held]);
  }
  own.sort((left, right) => left[1].expires_at - right[1].expires_at);
  for (const [hash] of own.slice(0, Math.max(0, own.length - MAX_TICKETS_PER_ACCOUNT + 1))) delete tickets[hash];
  const ticket = randomBytes(32).toString('base64url');
  tickets[sha256Hex(ticket)] = {
    account_id: account.id,
    app_id: app.id,
    expires_at: context.now() + (purpose === 'invite' ? INVITE_TTL_MS : RESET_TTL_MS),
    purpose,
  };
  return ticket;
}

export function dropTicketsOf(context: EmulatorContext, accountId: string): void {
  const tickets = context.store.data.reset_tickets;
  for (const [hash, ticket] of Object.entries(tickets)) {
    if (ticket.account_id === accountId) delete tickets[hash];
  }
}
