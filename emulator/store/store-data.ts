import { randomBytes } from 'node:crypto';

import type { StoreData } from '../core/types';

/** Helpers that build the emulator's state (its shapes live in ../types.ts). */

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
    files: dictionary(),
    ended_sessions: dictionary(),
  };
}
