import { randomBytes } from 'node:crypto';
import type { AgentConversation, SentEmail } from '../types';

/** The shapes of the emulator's state and the helpers that build them. */

/** A record of any entity. System fields are set by the emulator only. */
export interface EntityRecord {
  id: string;
  created_date: string;
  updated_date: string;
  created_by: string | null;
  [field: string]: unknown;
}

/** A platform identity. Membership in an app is a separate `User` record in that app. */
export interface Account {
  id: string;
  email: string;
  full_name: string;
  /** null until an invited account sets its password. */
  password_hash: string | null;
  email_verified: boolean;
  /** Bumped on every password change: tokens carrying an older version stop working. */
  token_version: number;
  created_date: string;
}

export interface OtpState {
  code_hash: string;
  expires_at: number;
  attempts: number;
  app_id: string;
}

export interface ResetTicket {
  account_id: string;
  app_id: string;
  expires_at: number;
  purpose: 'reset' | 'invite';
}

export interface PageVisit {
  id: string;
  user_id: string;
  user_email: string;
  page_name: string;
  created_date: string;
}

export interface StoredFile {
  id: string;
  app_id: string;
  name: string;
  type: string;
  size: number;
  created_by: string | null;
  created_date: string;
}

export interface AppState {
  entities: Record<string, Record<string, EntityRecord>>;
  conversations: Record<string, AgentConversation>;
  page_visits: PageVisit[];
}

export interface StoreData {
  version: 1;
  token_secret: string;
  accounts: Record<string, Account>;
  /** Keyed by lower-cased e-mail. */
  otps: Record<string, OtpState>;
  /** Keyed by the SHA-256 of the ticket, so the data file never holds a usable reset token. */
  reset_tickets: Record<string, ResetTicket>;
  apps: Record<string, AppState>;
  outbox: SentEmail[];
  files: Record<string, StoredFile>;
}

/** 24 hex characters, like the platform's ids. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * Every map keyed by user input (entity names, record ids, e-mails, file ids) has no prototype:
 * `constructor` or `toString` are ordinary keys there, never built-ins shared across apps.
 */
export function dictionary<T>(entries?: Record<string, T>): Record<string, T> {
  const map = Object.create(null) as Record<string, T>;
  if (entries) for (const key of Object.keys(entries)) map[key] = entries[key] as T;
  return map;
}

export function emptyStoreData(): StoreData {
  return {
    version: 1,
    token_secret: randomBytes(32).toString('base64url'),
    accounts: dictionary(),
    otps: dictionary(),
    reset_tickets: dictionary(),
    apps: dictionary(),
    outbox: [],
    files: dictionary(),
  };
}

export function emptyAppState(): AppState {
  return { entities: dictionary(), conversations: dictionary(), page_visits: [] };
}
