import type {
  Account,
  AgentConversation,
  AppState,
  EntityRecord,
  OtpState,
  PageVisit,
  ResetTicket,
  SentEmail,
  StoreData,
  StoredFile,
} from '../types';
import { ownValue } from '../util/own';
import { Collection } from './collection';
import { StoreDatabase } from './database';
import { DurableWriter } from './durable';
import { readLegacySnapshot, type LegacySnapshot } from './legacy-snapshot';
import { parseSection, restoreData, sectionsOf } from './sections';
import { dictionary, emptyAppState, emptyStoreData } from './store-data';

export * from './store-data';

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
        store
          .collectionOf(row.app, row.entity)
          .load(row.id, parseSection(row.body, `${row.entity} ${row.id}`, dataDir) as EntityRecord);
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
      sections: () => sectionsOf(this.data),
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
    let state = ownValue(this.data.apps, appId);
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

  /** The records of an entity if anything was ever written to it (reads create nothing). */
  existingCollection(appId: string, entity: string): Record<string, EntityRecord> | undefined {
    return this.collections.get(appId)?.get(entity)?.facade;
  }

  /** A conversation of an app by id, own properties only (ids come from URLs and socket rooms). */
  findConversation(appId: string, id: string): AgentConversation | undefined {
    return ownValue(ownValue(this.data.apps, appId)?.conversations, id);
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
