import { randomBytes } from 'node:crypto';
import type { AgentConversation, SentEmail } from '../types';
import { SnapshotWriter, loadSnapshot } from './persist';

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

export function emptyStoreData(): StoreData {
  return {
    version: 1,
    token_secret: randomBytes(32).toString('base64url'),
    accounts: {},
    otps: {},
    reset_tickets: {},
    apps: {},
    outbox: [],
    files: {},
  };
}

export function emptyAppState(): AppState {
  return { entities: {}, conversations: {}, page_visits: [] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the top-level shape of a loaded snapshot; a mismatch means a foreign or future file. */
function asStoreData(value: unknown, source: string): StoreData {
  const fail = (why: string): never => {
    throw new Error(`The emulator data file in ${source} is not a version 1 store (${why}).`);
  };
  if (!isObject(value)) return fail('not an object');
  if (value.version !== 1) fail(`version ${String(value.version)}`);
  if (typeof value.token_secret !== 'string' || value.token_secret.length < 16) fail('missing token secret');
  for (const key of ['accounts', 'otps', 'reset_tickets', 'apps', 'files'] as const) {
    if (!isObject(value[key])) fail(`"${key}" is not an object`);
  }
  if (!Array.isArray(value.outbox)) fail('"outbox" is not a list');
  return value as unknown as StoreData;
}

/**
 * The whole emulator state. Routes validate first, mutate `data` in place, then `await commit()`
 * before answering, so every acknowledged write is durable when a data dir is used.
 */
export class Store {
  private constructor(
    readonly data: StoreData,
    private readonly writer: SnapshotWriter | null,
    /** True when the data came from disk instead of a fresh seed. */
    readonly restored: boolean,
  ) {}

  static inMemory(): Store {
    return new Store(emptyStoreData(), null, false);
  }

  static async onDisk(dataDir: string): Promise<Store> {
    const loaded = await loadSnapshot(dataDir);
    const data = loaded === null ? emptyStoreData() : asStoreData(loaded, dataDir);
    let store: Store | null = null;
    const writer = new SnapshotWriter(dataDir, () => JSON.stringify((store as Store).data));
    store = new Store(data, writer, loaded !== null);
    return store;
  }

  /** Resolves once the current state is durable (immediately in memory). */
  async commit(): Promise<void> {
    if (this.writer) await this.writer.commit();
  }

  async idle(): Promise<void> {
    if (this.writer) await this.writer.idle();
  }

  app(appId: string): AppState {
    let state = this.data.apps[appId];
    if (!state) {
      state = emptyAppState();
      this.data.apps[appId] = state;
    }
    return state;
  }

  collection(appId: string, entity: string): Record<string, EntityRecord> {
    const app = this.app(appId);
    let records = app.entities[entity];
    if (!records) {
      records = {};
      app.entities[entity] = records;
    }
    return records;
  }

  findAccountByEmail(email: string): Account | undefined {
    const wanted = email.trim().toLowerCase();
    return Object.values(this.data.accounts).find((account) => account.email.toLowerCase() === wanted);
  }
}
