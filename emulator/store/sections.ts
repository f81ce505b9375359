import { isJsonObject } from '../core/json-guard';
import type { Account, OtpState, ResetTicket, StoreData } from '../core/types';
import { dictionary } from './store-data';

/**
 * The small shared state in the database: one row per section, `core` (accounts, codes, tickets,
 * token secret) and an `app:{id}` marker per app the store has seen (so the seed adds an app's
 * members only once). The growing lists (outbox, files, conversations, page visits) are rows of
 * their own (entries.ts), so a commit never rewrites them.
 */

export const CORE_SECTION = 'core';
const SESSIONS_SECTION = 'sessions';
const APP_SECTION_PREFIX = 'app:';

export function parseSection(body: string, name: string, source: string): Record<string, unknown> | unknown[] {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch (error) {
    throw new Error(
      `The emulator database in ${source} holds invalid JSON in "${name}" (${(error as Error).message}).`,
    );
  }
}

export interface RestoredData {
  data: StoreData;
  /** The apps the store had seen. */
  apps: string[];
}

/** Rebuilds the small shared state from its sections; a mismatch means a damaged database. */
export function restoreData(sections: ReadonlyMap<string, string>, source: string): RestoredData | null {
  const coreText = sections.get(CORE_SECTION);
  if (coreText === undefined) return null;
  const fail = (why: string): never => {
    throw new Error(`The emulator database in ${source} is not a version 1 store (${why}).`);
  };
  const core = parseSection(coreText, CORE_SECTION, source);
  if (!isJsonObject(core)) return fail('core is not an object');
  if (core.version !== 1) fail(`version ${String(core.version)}`);
  if (typeof core.token_secret !== 'string' || core.token_secret.length < 16) fail('missing token secret');
  for (const key of ['accounts', 'otps', 'reset_tickets'] as const)
    if (!isJsonObject(core[key])) fail(`"${key}" is not an object`);
  const sessions = parseSection(sections.get(SESSIONS_SECTION) ?? '{"ended":{}}', SESSIONS_SECTION, source);
  if (!isJsonObject(sessions) || !isJsonObject(sessions.ended)) fail('"sessions" is damaged');
  const data: StoreData = {
    version: 1,
    token_secret: core.token_secret as string,
    accounts: dictionary(core.accounts as Record<string, Account>),
    otps: dictionary(core.otps as Record<string, OtpState>),
    reset_tickets: dictionary(core.reset_tickets as Record<string, ResetTicket>),
    files: dictionary(),
    ended_sessions: dictionary((sessions as Record<string, unknown>).ended as Record<string, number>),
    apps: dictionary(),
  };
  const apps: string[] = [];
  for (const [name, body] of sections) {
    if (!name.startsWith(APP_SECTION_PREFIX)) continue;
    if (!isJsonObject(parseSection(body, name, source))) fail(`"${name}" is damaged`);
    apps.push(name.slice(APP_SECTION_PREFIX.length));
  }
  return { data, apps };
}

/** The sections as JSON-ready values, for the writer to compare and store. */
export function sectionsOf(data: StoreData): Map<string, unknown> {
  const { accounts, otps, reset_tickets, token_secret, version } = data;
  const sections = new Map<string, unknown>([
    [CORE_SECTION, { version, token_secret, accounts, otps, reset_tickets }],
    [SESSIONS_SECTION, { ended: data.ended_sessions }],
  ]);
  for (const id of Object.keys(data.apps)) sections.set(APP_SECTION_PREFIX + id, {});
  return sections;
}
