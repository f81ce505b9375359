import { randomBytes } from 'node:crypto';

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
import { StoreChange, type StagedChange } from './change';
import type { Collection } from './collection';
import { StoreDatabase } from './database';
import { ENTRY_KINDS } from './entries';
import { loadDatabase } from './load';
import { PlannedRoom, requireFileRoom } from './room';
import { StoreTables } from './tables';

export { newId } from './ids';
export type { StoreChange } from './change';

/**
 * The whole emulator state, in memory, and the one way to change it. Reads are named methods
 * below. Every write is a `write(change => ...)`: the change is staged through named operations
 * (change.ts), checked whole against the budgets, applied, made durable and only then announced
 * (its `afterCommit` steps, such as the real-time publish). With a data dir every record and every
 * other entry is one database row, written in the next group commit only if it changed; reads
 * never touch the disk.
 */
export class Store {
  private constructor(
    private readonly tables: StoreTables,
    private readonly database: StoreDatabase | null,
  ) {}

  static inMemory(): Store {
    return new Store(new StoreTables(newTokenSecret()), null);
  }

  static onDisk(dataDir: string): Store {
    const database = StoreDatabase.open(dataDir);
    try {
      return new Store(loadDatabase(database, dataDir, newTokenSecret), database);
    } catch (error) {
      database.close();
      throw error;
    }
  }

  /**
   * The one commit path. `build` stages the change (synchronously; reads see the store as it was);
   * nothing is changed when it or a budget check throws. Resolves, with what `build` returned, once
   * the change is durable and its `afterCommit` steps have run.
   */
  async write<T>(build: (change: StoreChange) => T): Promise<T> {
    const staged: StagedChange = { steps: [], afterwards: [], open: true };
    let result: T;
    try {
      result = build(new StoreChange(this.tables, staged));
    } finally {
      staged.open = false;
    }
    if (result instanceof Promise) throw new Error('A store change is staged synchronously, not in an async callback');
    const room = new PlannedRoom(this.tables);
    for (const step of staged.steps) step.check?.(room);
    room.verify();
    for (const step of staged.steps) step.apply();
    if (staged.steps.length > 0 && this.tables.writer) await this.tables.writer.commit();
    for (const step of staged.afterwards) step();
    return result;
  }

  async idle(): Promise<void> {
    await this.tables.writer?.idle();
  }

  /** Waits for pending writes, then closes the database (releasing the data dir). */
  async close(): Promise<void> {
    await this.idle();
    this.database?.close();
  }

  /** Signs tokens and session ids; kept with the data, so tokens survive a restart. */
  get tokenSecret(): string {
    return this.tables.tokenSecret;
  }

  /** Whether the store holds data of the app (the seed adds an app's data only once). */
  hasApp(appId: string): boolean {
    return this.tables.hasApp(appId);
  }

  // --- Records (emulator/records/ reads them for everyone else).

  record(appId: string, entity: string, id: string): EntityRecord | undefined {
    return this.tables.existingRecords(appId, entity)?.get(id);
  }

  /** The collection behind an entity's records, if anything was ever written to it (for indexes). */
  recordCollection(appId: string, entity: string): Collection<EntityRecord> | undefined {
    return this.tables.existingRecords(appId, entity);
  }

  /** Every record of an entity in insertion order, from a cache (no copy per call); empty if none. */
  recordsOf(appId: string, entity: string): readonly EntityRecord[] {
    return this.tables.existingRecords(appId, entity)?.all() ?? [];
  }

  // --- Accounts, codes, tickets, sessions.

  account(id: string): Account | undefined {
    return this.tables.accounts.get(id);
  }

  findAccountByEmail(email: string): Account | undefined {
    return this.tables.accountByEmail(email);
  }

  /** The code state of an address (lower-cased). */
  otp(email: string): OtpState | undefined {
    return this.tables.otps.get(email);
  }

  /** A ticket by the SHA-256 of the ticket presented. */
  ticket(hash: string): ResetTicket | undefined {
    return this.tables.tickets.get(hash);
  }

  /** Every ticket with its hash. */
  tickets(): IterableIterator<[string, ResetTicket]> {
    return this.tables.tickets.pairs();
  }

  isSessionEnded(sessionId: string): boolean {
    return this.tables.endedSessions.has(sessionId);
  }

  /** Every ended session with when its last token expires (ms). */
  endedSessions(): IterableIterator<[string, number]> {
    return this.tables.endedSessions.pairs();
  }

  // --- Conversations, files, page visits, mail.

  findConversation(appId: string, id: string): StoredConversation | undefined {
    return this.tables.entries.current(ENTRY_KINDS.conversation, appId, id) as StoredConversation | undefined;
  }

  conversationsOf(appId: string): readonly StoredConversation[] {
    return this.tables.conversations(appId).all();
  }

  file(id: string): StoredFile | undefined {
    return this.tables.files.get(id);
  }

  /** Refuses (413) an upload of `size` bytes past the files budget (checked again when it is written). */
  requireFileRoom(size: number): void {
    requireFileRoom(this.tables, 1, size);
  }

  /** Oldest first. */
  pageVisits(appId: string): readonly PageVisit[] {
    return this.tables.pageVisits(appId).all();
  }

  /** Every mail in the outbox, oldest first. */
  mails(): readonly SentEmail[] {
    return this.tables.mails.all();
  }
}

function newTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}
