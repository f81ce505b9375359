import type {
  Account,
  AgentConversation,
  OtpState,
  PageVisit,
  ResetTicket,
  SentEmail,
  StoreData,
  StoredFile,
} from '../types';
import { isJsonObject } from './json-guard';
import { dictionary, emptyAppState } from './store-data';

/**
 * The shared (non-record) state in the database: one row per section, `core` (accounts, codes,
 * tickets, files, token secret), `outbox`, `sessions` (ended login sessions; absent in older
 * databases) and `app:{id}` (conversations, page visits) per app.
 */

export const CORE_SECTION = 'core';
const OUTBOX_SECTION = 'outbox';
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

/** Rebuilds the shared state from its sections; a mismatch means a foreign or damaged database. */
export function restoreData(sections: ReadonlyMap<string, string>, source: string): StoreData | null {
  const coreText = sections.get(CORE_SECTION);
  if (coreText === undefined) return null;
  const fail = (why: string): never => {
    throw new Error(`The emulator database in ${source} is not a version 1 store (${why}).`);
  };
  const core = parseSection(coreText, CORE_SECTION, source);
  if (!isJsonObject(core)) return fail('core is not an object');
  if (core.version !== 1) fail(`version ${String(core.version)}`);
  if (typeof core.token_secret !== 'string' || core.token_secret.length < 16) fail('missing token secret');
  for (const key of ['accounts', 'otps', 'reset_tickets', 'files'] as const)
    if (!isJsonObject(core[key])) fail(`"${key}" is not an object`);
  const outbox = parseSection(sections.get(OUTBOX_SECTION) ?? '[]', OUTBOX_SECTION, source);
  if (!Array.isArray(outbox)) fail('"outbox" is not a list');
  const sessions = parseSection(sections.get(SESSIONS_SECTION) ?? '{"ended":{}}', SESSIONS_SECTION, source);
  if (!isJsonObject(sessions) || !isJsonObject(sessions.ended)) fail('"sessions" is damaged');
  const data: StoreData = {
    version: 1,
    token_secret: core.token_secret as string,
    accounts: dictionary(core.accounts as Record<string, Account>),
    otps: dictionary(core.otps as Record<string, OtpState>),
    reset_tickets: dictionary(core.reset_tickets as Record<string, ResetTicket>),
    files: dictionary(core.files as Record<string, StoredFile>),
    outbox: outbox as SentEmail[],
    ended_sessions: dictionary((sessions as Record<string, unknown>).ended as Record<string, number>),
    apps: dictionary(),
  };
  for (const [name, body] of sections) {
    if (!name.startsWith(APP_SECTION_PREFIX)) continue;
    const app = parseSection(body, name, source);
    if (!isJsonObject(app) || !isJsonObject(app.conversations) || !Array.isArray(app.page_visits))
      fail(`"${name}" is damaged`);
    const state = emptyAppState();
    state.conversations = dictionary(
      (app as Record<string, unknown>).conversations as Record<string, AgentConversation>,
    );
    state.page_visits = (app as Record<string, unknown>).page_visits as PageVisit[];
    data.apps[name.slice(APP_SECTION_PREFIX.length)] = state;
  }
  return data;
}

/** The sections as JSON-ready values, for the writer to compare and store. */
export function sectionsOf(data: StoreData): Map<string, unknown> {
  const { accounts, otps, reset_tickets, files, outbox, token_secret, version } = data;
  const sections = new Map<string, unknown>([
    [CORE_SECTION, { version, token_secret, accounts, otps, reset_tickets, files }],
    [OUTBOX_SECTION, outbox],
    [SESSIONS_SECTION, { ended: data.ended_sessions }],
  ]);
  for (const [id, app] of Object.entries(data.apps)) {
    sections.set(APP_SECTION_PREFIX + id, { conversations: app.conversations, page_visits: app.page_visits });
  }
  return sections;
}
