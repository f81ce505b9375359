import { MAX_RECORD_BYTES } from '../core/json-guard';
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
} from '../core/types';
import { ownValue } from '../util/own';
import {
  MAX_APP_CONVERSATION_BYTES,
  MAX_APP_RECORD_BYTES,
  MAX_CONVERSATION_BYTES,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_PAGE_VISITS_PER_APP,
  storageFull,
} from './budgets';
import { Collection, jsonBytes } from './collection';
import { StoreDatabase, type StoredEntry } from './database';
import { DurableWriter } from './durable';
import { ENTRY_KINDS, EntryLists, isEntryKind } from './entries';
import { readLegacySnapshot, type LegacySnapshot } from './legacy-snapshot';
import { Outbox } from './outbox';
import { parseSection, restoreData, sectionsOf } from './sections';
import { dictionary, emptyStoreData } from './store-data';

export * from './store-data';

/** A record about to be written (`record`) or deleted (`record` undefined), for the budget check. */
export interface PlannedRecord {
  entity: string;
  id: string;
  record: EntityRecord | undefined;
}

/**
 * The whole emulator state, in memory. Routes validate first, change `data`, then `await commit()`
 * before answering. With a data dir, every record and every entry of a growing list (outbox,
 * files, conversations, page visits) is one database row, written in the next group commit only if
 * it changed; reads never touch the disk. Budgets (budgets.ts) are checked here, before a change.
 */
export class Store {
  private writer: DurableWriter | null = null;
  private readonly entries = new EntryLists((kind, app, id) => this.writer?.markEntry(kind, app, id));
  private readonly files = this.entries.list<StoredFile>(ENTRY_KINDS.file, '');
  private fileBytes = 0;
  readonly outbox = new Outbox(this.entries.list<SentEmail>(ENTRY_KINDS.outbox, ''));

  private constructor(
    readonly data: StoreData,
    private readonly database: StoreDatabase | null,
    /** True when the data came from disk instead of a fresh seed. */
    readonly restored: boolean,
  ) {
    data.files = this.files.facade;
  }

  static inMemory(): Store {
    return new Store(emptyStoreData(), null, false);
  }

  static onDisk(dataDir: string): Store {
    const database = StoreDatabase.open(dataDir);
    try {
      const sections = database.sections();
      const restored = restoreData(sections, dataDir);
      const legacy = restored === null ? readLegacySnapshot(dataDir) : null;
      const store = new Store(restored?.data ?? emptyStoreData(), database, restored !== null || legacy !== null);
      for (const appId of restored?.apps ?? []) store.app(appId);
      for (const row of database.records()) {
        store
          .collectionOf(row.app, row.entity)
          .load(row.id, parseSection(row.body, `${row.entity} ${row.id}`, dataDir) as EntityRecord);
      }
      for (const entry of database.entries()) store.loadEntry(entry, dataDir);
      store.writer = new DurableWriter(database, store.durableSource(), sections);
      if (legacy) store.adopt(legacy);
      return store;
    } catch (error) {
      database.close();
      throw error;
    }
  }

  private loadEntry(entry: StoredEntry, source: string): void {
    if (!isEntryKind(entry.kind))
      throw new Error(`The emulator database in ${source} holds an unknown "${entry.kind}" row.`);
    const value = parseSection(entry.body, `${entry.kind} ${entry.id}`, source) as object;
    if (entry.kind === ENTRY_KINDS.conversation || entry.kind === ENTRY_KINDS.pageVisit) this.app(entry.app);
    this.entries.list(entry.kind, entry.app).load(entry.id, value);
    if (entry.kind === ENTRY_KINDS.file) this.fileBytes += (value as StoredFile).size;
  }

  private durableSource() {
    return {
      currentRecord: (app: string, entity: string, id: string) => this.collections.get(app)?.get(entity)?.get(id),
      currentEntry: (kind: string, app: string, id: string) => this.entries.current(kind, app, id),
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
    });
    for (const file of Object.values(legacy.files as Record<string, StoredFile>)) this.addFile(file);
    for (const mail of legacy.outbox as SentEmail[]) this.outbox.add(mail, 'emulator');
    for (const [appId, app] of Object.entries(legacy.apps)) {
      const state = this.app(appId);
      for (const [id, conversation] of Object.entries(app.conversations))
        state.conversations[id] = conversation as AgentConversation;
      for (const visit of app.page_visits as PageVisit[]) this.addPageVisit(appId, visit);
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

  /** Waits for pending writes, then closes the database (releasing the data dir). */
  async close(): Promise<void> {
    await this.idle();
    this.database?.close();
  }

  app(appId: string): AppState {
    let state = ownValue(this.data.apps, appId);
    if (!state) {
      const visits = this.entries.list<PageVisit>(ENTRY_KINDS.pageVisit, appId);
      state = {
        entities: dictionary(),
        conversations: this.entries.list<AgentConversation>(ENTRY_KINDS.conversation, appId).facade,
        get page_visits() {
          return visits.all();
        },
      };
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

  /**
   * Refuses (413) a batch of record writes if one record would be larger than a record may be, or
   * the app's records together larger than their budget. Sizes are those of the records as stored,
   * after any merge, so repeated updates cannot grow a record past the limit.
   */
  requireRecordRoom(appId: string, planned: readonly PlannedRecord[]): void {
    let delta = 0;
    for (const { entity, id, record } of planned) {
      const size = record === undefined ? 0 : jsonBytes(record);
      if (size > MAX_RECORD_BYTES)
        throw storageFull(`${entity} ${id.slice(0, 100)}`, 0, size, MAX_RECORD_BYTES, 'record_too_large');
      delta += size - (this.collections.get(appId)?.get(entity)?.sizeOf(id) ?? 0);
    }
    let used = 0;
    for (const collection of this.collections.get(appId)?.values() ?? []) used += collection.bytes;
    if (delta > 0 && used + delta > MAX_APP_RECORD_BYTES)
      throw storageFull(`The records of app ${appId}`, used, delta, MAX_APP_RECORD_BYTES);
  }

  /** A conversation of an app by id, own properties only (ids come from URLs and socket rooms). */
  findConversation(appId: string, id: string): AgentConversation | undefined {
    return ownValue(ownValue(this.data.apps, appId)?.conversations, id);
  }

  /** Refuses (413) growing a conversation (new or not) by `addedBytes` past its or the app's budget. */
  requireConversationRoom(appId: string, id: string, addedBytes: number): void {
    const conversations = this.entries.list<AgentConversation>(ENTRY_KINDS.conversation, appId);
    const own = conversations.sizeOf(id);
    if (own + addedBytes > MAX_CONVERSATION_BYTES)
      throw storageFull('The conversation', own, addedBytes, MAX_CONVERSATION_BYTES, 'conversation_too_large');
    if (conversations.bytes + addedBytes > MAX_APP_CONVERSATION_BYTES)
      throw storageFull(
        `The conversations of app ${appId}`,
        conversations.bytes,
        addedBytes,
        MAX_APP_CONVERSATION_BYTES,
      );
  }

  /** Records that a stored conversation changed in place (a message added), for the next commit. */
  conversationChanged(appId: string, conversation: AgentConversation): void {
    this.app(appId).conversations[conversation.id] = conversation;
  }

  /** Adds a page visit; past the count limit the oldest visits of the app roll off. */
  addPageVisit(appId: string, visit: PageVisit): void {
    this.app(appId);
    const visits = this.entries.list<PageVisit>(ENTRY_KINDS.pageVisit, appId);
    visits.put(visit.id, visit);
    for (
      let oldest = visits.oldestId();
      oldest !== undefined && visits.size > MAX_PAGE_VISITS_PER_APP;
      oldest = visits.oldestId()
    )
      visits.remove(oldest);
  }

  /** Refuses (413) an upload of `size` bytes past the files budget. */
  requireFileRoom(size: number): void {
    if (this.files.size >= MAX_FILES)
      throw storageFull(
        `The uploaded files (${this.files.size}, at most ${MAX_FILES})`,
        this.fileBytes,
        size,
        MAX_FILE_BYTES,
      );
    if (this.fileBytes + size > MAX_FILE_BYTES)
      throw storageFull('The uploaded files', this.fileBytes, size, MAX_FILE_BYTES);
  }

  addFile(file: StoredFile): void {
    this.files.put(file.id, file);
    this.fileBytes += file.size;
  }

  /** The collection behind an entity's records, if anything was ever written to it (for indexes). */
  recordCollection(appId: string, entity: string): Collection<EntityRecord> | undefined {
    return this.collections.get(appId)?.get(entity);
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
