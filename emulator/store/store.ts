import { randomBytes } from 'node:crypto';
import type { AgentConversation, SentEmail } from '../types';
import { StoreDatabase } from './database';
import { Collection } from './collection';
import { DurableWriter } from './durable';
import { readLegacySnapshot, type LegacySnapshot } from './legacy-snapshot';

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const CORE_SECTION = 'core';
const OUTBOX_SECTION = 'outbox';
const APP_SECTION_PREFIX = 'app:';

function parseSection(body: string, name: string, source: string): Record<string, unknown> | unknown[] {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`The emulator database in ${source} holds invalid JSON in "${name}" (${(error as Error).message}).`);
  }
}

/** Rebuilds the shared state from its sections; a mismatch means a foreign or damaged database. */
function restoreData(sections: ReadonlyMap<string, string>, source: string): StoreData | null {
  const coreText = sections.get(CORE_SECTION);
  if (coreText === undefined) return null;
  const fail = (why: string): never => {
    throw new Error(`The emulator database in ${source} is not a version 1 store (${why}).`);
  };
  const core = parseSection(coreText, CORE_SECTION, source);
  if (!isObject(core)) return fail('core is not an object');
  if (core.version !== 1) fail(`version ${String(core.version)}`);
  if (typeof core.token_secret !== 'string' || core.token_secret.length < 16) fail('missing token secret');
  for (const key of ['accounts', 'otps', 'reset_tickets', 'files'] as const) if (!isObject(core[key])) fail(`"${key}" is not an object`);
  const outbox = parseSection(sections.get(OUTBOX_SECTION) ?? '[]', OUTBOX_SECTION, source);
  if (!Array.isArray(outbox)) fail('"outbox" is not a list');
  const data: StoreData = {
    version: 1,
    token_secret: core.token_secret as string,
    accounts: dictionary(core.accounts as Record<string, Account>),
    otps: dictionary(core.otps as Record<string, OtpState>),
    reset_tickets: dictionary(core.reset_tickets as Record<string, ResetTicket>),
    files: dictionary(core.files as Record<string, StoredFile>),
    outbox: outbox as SentEmail[],
    apps: dictionary(),
  };
  for (const [name, body] of sections) {
    if (!name.startsWith(APP_SECTION_PREFIX)) continue;
    const app = parseSection(body, name, source);
    if (!isObject(app) || !isObject(app.conversations) || !Array.isArray(app.page_visits)) fail(`"${name}" is damaged`);
    const state = emptyAppState();
    state.conversations = dictionary((app as Record<string, unknown>).conversations as Record<string, AgentConversation>);
    state.page_visits = (app as Record<string, unknown>).page_visits as PageVisit[];
    data.apps[name.slice(APP_SECTION_PREFIX.length)] = state;
  }
  return data;
}

/**
 * The whole emulator state, in memory. Routes validate first, change `data`, then `await commit()`
 * before answering. With a data dir, every record written through `collection()` is one database
 * row, written in the next group commit; reads never touch the disk.
 */
export class Store {
  private writer: DurableWriter | null = null;

  private constructor(
    readonly data: StoreData,
    private readonly database: StoreDatabase | null,
    /** True when the data came from disk instead of a fresh seed. */
    readonly restored: boolean,
  ) {}

  static inMemory(): Store {
    return new Store(emptyStoreData(), null, false);
  }

  static onDisk(dataDir: string): Store {
    const database = StoreDatabase.open(dataDir);
    try {
      const sections = database.sections();
      const restored = restoreData(sections, dataDir);
      const legacy = restored === null ? readLegacySnapshot(dataDir) : null;
      const store = new Store(restored ?? emptyStoreData(), database, restored !== null || legacy !== null);
      for (const row of database.records()) {
        store.collectionOf(row.app, row.entity).load(row.id, parseSection(row.body, `${row.entity} ${row.id}`, dataDir) as EntityRecord);
      }
      store.writer = new DurableWriter(database, store.durableSource(), sections);
      if (legacy) store.adopt(legacy);
      return store;
    } catch (error) {
      database.close();
      throw error;
    }
  }

  private durableSource() {
    return {
      currentRecord: (app: string, entity: string, id: string) => this.collections.get(app)?.get(entity)?.get(id),
      sections: () => {
        const { accounts, otps, reset_tickets, files, outbox, token_secret, version } = this.data;
        const sections = new Map<string, unknown>([
          [CORE_SECTION, { version, token_secret, accounts, otps, reset_tickets, files }],
          [OUTBOX_SECTION, outbox],
        ]);
        for (const [id, app] of Object.entries(this.data.apps)) {
          sections.set(APP_SECTION_PREFIX + id, { conversations: app.conversations, page_visits: app.page_visits });
        }
        return sections;
      },
    };
  }

  /** Takes over the contents of an old `store.json`; the next commit writes them to the database. */
  private adopt(legacy: LegacySnapshot): void {
    Object.assign(this.data, {
      token_secret: legacy.token_secret,
      accounts: dictionary(legacy.accounts as Record<string, Account>),
      otps: dictionary(legacy.otps as Record<string, OtpState>),
      reset_tickets: dictionary(legacy.reset_tickets as Record<string, ResetTicket>),
      files: dictionary(legacy.files as Record<string, StoredFile>),
      outbox: legacy.outbox as SentEmail[],
    });
    for (const [appId, app] of Object.entries(legacy.apps)) {
      const state = this.app(appId);
      state.conversations = dictionary(app.conversations as Record<string, AgentConversation>);
      state.page_visits = app.page_visits as PageVisit[];
      for (const [entity, records] of Object.entries(app.entities)) {
        const collection = this.collectionOf(appId, entity);
        for (const [id, record] of Object.entries(records)) collection.put(id, record as EntityRecord);
      }
    }
  }

  /** Resolves once the current state is durable (immediately in memory). */
  async commit(): Promise<void> {
    if (this.writer) await this.writer.commit();
  }

  async idle(): Promise<void> {
    if (this.writer) await this.writer.idle();
  }

  /** Waits for pending writes, then closes the database. */
  async close(): Promise<void> {
    await this.idle();
    this.database?.close();
  }

  app(appId: string): AppState {
    let state = this.data.apps[appId];
    if (!state) {
      state = emptyAppState();
      this.data.apps[appId] = state;
    }
    return state;
  }

  private readonly collections = new Map<string, Map<string, Collection<EntityRecord>>>();

  private collectionOf(appId: string, entity: string): Collection<EntityRecord> {
    let entities = this.collections.get(appId);
    if (!entities) {
      entities = new Map();
      this.collections.set(appId, entities);
    }
    let collection = entities.get(entity);
    if (!collection) {
      collection = new Collection<EntityRecord>((id) => this.writer?.markRecord(appId, entity, id));
      entities.set(entity, collection);
      this.app(appId).entities[entity] = collection.facade;
    }
    return collection;
  }

  /** The records of an entity, created empty on first use. Assign or delete keys to change records. */
  collection(appId: string, entity: string): Record<string, EntityRecord> {
    return this.collectionOf(appId, entity).facade;
  }

  /** Every record of an entity in insertion order, from a cache (no copy per call); empty if none. */
  recordsOf(appId: string, entity: string): readonly EntityRecord[] {
    return this.collections.get(appId)?.get(entity)?.all() ?? [];
  }

  findAccountByEmail(email: string): Account | undefined {
    const wanted = email.trim().toLowerCase();
    return Object.values(this.data.accounts).find((account) => account.email.toLowerCase() === wanted);
  }
}
