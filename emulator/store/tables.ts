import type {
  Account,
  EntityRecord,
  OtpState,
  PageVisit,
  ResetTicket,
  SentEmail,
  StoredConversation,
  StoredFile,
} from '../core/types';
import { Collection } from './collection';
import type { DurableWriter } from './durable';
import { ENTRY_KINDS, EntryLists } from './entries';
import { appSectionName } from './sections';

/**
 * Everything the store holds in memory, as collections. Only emulator/store/ reaches it: the rest of
 * the emulator reads through the Store's named reads and writes through a StoreChange (change.ts),
 * whose every write ends in a collection's `put` or `remove`, which marks it for the next commit.
 */
export class StoreTables {
  /** Set once the stored state is loaded: from then on every change is marked for the next commit. */
  writer: DurableWriter | null = null;
  private readonly records = new Map<string, Map<string, Collection<EntityRecord>>>();
  private readonly apps = new Set<string>();
  readonly entries = new EntryLists((kind, app, id) => this.writer?.markEntry(kind, app, id));
  readonly accounts = this.entries.list<Account>(ENTRY_KINDS.account, '');
  /** Keyed by lower-cased e-mail. */
  readonly otps = this.entries.list<OtpState>(ENTRY_KINDS.otp, '');
  /** Keyed by the SHA-256 of the ticket, so the database never holds a usable reset token. */
  readonly tickets = this.entries.list<ResetTicket>(ENTRY_KINDS.resetTicket, '');
  /** Login sessions ended by logout: id -> when the last token issued in it expires (ms). */
  readonly endedSessions = this.entries.list<number>(ENTRY_KINDS.endedSession, '');
  readonly files = this.entries.list<StoredFile>(ENTRY_KINDS.file, '');
  readonly mails = this.entries.list<SentEmail>(ENTRY_KINDS.outbox, '');
  /** Bytes of all uploaded files (their sizes, not the JSON of their metadata). */
  fileBytes = 0;

  constructor(public tokenSecret: string) {}

  /** The account of an address, whatever the case of its letters (one account per address). */
  accountByEmail(email: string): Account | undefined {
    const wanted = email.trim().toLowerCase();
    return this.accounts.all().find((account) => account.email.toLowerCase() === wanted);
  }

  /** Notes that the store holds data of an app; the first time, its marker is written. */
  knowApp(appId: string): void {
    if (this.apps.has(appId)) return;
    this.apps.add(appId);
    this.writer?.markSection(appSectionName(appId), '{}');
  }

  hasApp(appId: string): boolean {
    return this.apps.has(appId);
  }

  conversations(appId: string): Collection<StoredConversation> {
    return this.entries.list<StoredConversation>(ENTRY_KINDS.conversation, appId);
  }

  pageVisits(appId: string): Collection<PageVisit> {
    return this.entries.list<PageVisit>(ENTRY_KINDS.pageVisit, appId);
  }

  /** The records of an entity if anything was ever written to it (reads create nothing). */
  existingRecords(appId: string, entity: string): Collection<EntityRecord> | undefined {
    return this.records.get(appId)?.get(entity);
  }

  /** The records of an entity, created empty on first use. */
  recordCollection(appId: string, entity: string): Collection<EntityRecord> {
    this.knowApp(appId);
    let entities = this.records.get(appId);
    if (!entities) {
      entities = new Map();
      this.records.set(appId, entities);
    }
    let collection = entities.get(entity);
    if (!collection) {
      collection = new Collection<EntityRecord>((id) => this.writer?.markRecord(appId, entity, id));
      entities.set(entity, collection);
    }
    return collection;
  }

  /** JSON bytes of all records of an app. */
  recordBytes(appId: string): number {
    let used = 0;
    for (const collection of this.records.get(appId)?.values() ?? []) used += collection.bytes;
    return used;
  }
}
