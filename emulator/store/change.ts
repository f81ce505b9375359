import type {
  Account,
  AgentConversation,
  AgentMessage,
  EntityRecord,
  OtpState,
  PageVisit,
  ResetTicket,
  SentEmail,
  StoredConversation,
  StoredFile,
} from '../core/types';
import { MAX_PAGE_VISITS_PER_APP } from './budgets';
import { jsonBytes } from './collection';
import { putMail, type MailSender } from './outbox';
import type { PlannedRoom } from './room';
import type { StoreTables } from './tables';

/**
 * One change of the store, staged by named operations inside `Store.write`, the one commit path:
 * every operation is checked (budgets, and that what it changes is there) before any of them is
 * applied, so a refused change leaves nothing behind; then all are applied in order, made durable
 * together, and only then do the `afterCommit` steps (real-time publish, logs) run. Reads while
 * staging see the store as it was before the change.
 */

export interface Step {
  /** Throws to refuse the whole change; adds what the step needs to `room`. */
  check?(room: PlannedRoom): void;
  /** Changes collections only through their `put` and `remove`. */
  apply(): void;
}

/** A write of something that is not there: a bug of the caller, never the user's mistake. */
function missing(what: string, id: string): Error {
  return new Error(`The store holds no ${what} ${id.slice(0, 100)} to change`);
}

function present(what: string, id: string): Error {
  return new Error(`The store holds ${what} ${id.slice(0, 100)} already`);
}

/** What `Store.write` collects from a change; closed once the callback has returned. */
export interface StagedChange {
  steps: Step[];
  afterwards: (() => void)[];
  open: boolean;
}

export class StoreChange {
  constructor(
    private readonly tables: StoreTables,
    private readonly staged: StagedChange,
  ) {}

  private stage(step: Step): void {
    // A change kept past its callback would be lost silently: staging ends with the callback.
    if (!this.staged.open) throw new Error('A store change is staged only inside its store.write callback');
    this.staged.steps.push(step);
  }

  /** Runs once the change is durable, in the order given (the real-time publish belongs here). */
  afterCommit(step: () => void): void {
    if (!this.staged.open) throw new Error('A store change is staged only inside its store.write callback');
    this.staged.afterwards.push(step);
  }

  // --- Records: only emulator/records/ stages these (ESLint), after its rules and validation.

  /** New records (writing none still marks the app as seeded, which the seed relies on). */
  insertRecords(appId: string, entity: string, records: readonly EntityRecord[]): void {
    this.putRecords(appId, entity, records, true);
  }

  /** Stored records replaced whole by their new versions. */
  replaceRecords(appId: string, entity: string, records: readonly EntityRecord[]): void {
    this.putRecords(appId, entity, records, false);
  }

  private putRecords(appId: string, entity: string, records: readonly EntityRecord[], isNew: boolean): void {
    // Each record's stored size, measured once by the budget check and kept by the collection.
    const sizes: number[] = [];
    this.stage({
      check: (room) => {
        for (const record of records) {
          const stored = this.tables.existingRecords(appId, entity)?.has(record.id) ?? false;
          if (stored === isNew) throw (isNew ? present : missing)(entity, record.id);
          sizes.push(room.record(appId, entity, record.id, record));
        }
      },
      apply: () => {
        const collection = this.tables.recordCollection(appId, entity);
        records.forEach((record, at) => collection.put(record.id, record, sizes[at]));
      },
    });
  }

  deleteRecords(appId: string, entity: string, ids: readonly string[]): void {
    this.stage({
      check: (room) => {
        for (const id of ids) {
          if (!this.tables.existingRecords(appId, entity)?.has(id)) throw missing(entity, id);
          room.record(appId, entity, id, undefined);
        }
      },
      apply: () => {
        const collection = this.tables.recordCollection(appId, entity);
        for (const id of ids) collection.remove(id);
      },
    });
  }

  // --- Agent conversations: replaced whole, never changed in place (readers keep what they read).

  startConversation(appId: string, conversation: AgentConversation): void {
    this.stage({
      check: (room) => {
        if (this.tables.conversations(appId).has(conversation.id)) throw present('conversation', conversation.id);
        room.conversation(appId, conversation.id, jsonBytes(conversation), conversation.messages.length);
      },
      apply: () => {
        this.tables.knowApp(appId);
        this.tables.conversations(appId).put(conversation.id, conversation);
      },
    });
  }

  /** Adds a message to a stored conversation; its `updated_date` becomes the message's date. */
  appendMessage(appId: string, conversationId: string, message: AgentMessage): void {
    const conversations = this.tables.conversations(appId);
    this.stage({
      check: (room) => {
        if (!conversations.has(conversationId)) throw missing('conversation', conversationId);
        // The message and its separating comma; updated_date keeps its length.
        room.conversation(appId, conversationId, jsonBytes(message) + 1, 1);
      },
      apply: () => {
        const current = conversations.get(conversationId) as StoredConversation;
        const messages = [...current.messages, message];
        conversations.put(conversationId, { ...current, messages, updated_date: message.created_date });
      },
    });
  }

  // --- Accounts (identities across apps), replaced whole on every change.

  /** A new account; its address must be free (two accounts of one address would split a user). */
  addAccount(account: Account): void {
    this.stage({
      check: () => {
        if (this.tables.accounts.has(account.id)) throw present('account', account.id);
        if (this.tables.accountByEmail(account.email)) throw present('an account of', account.email.toLowerCase());
      },
      apply: () => this.tables.accounts.put(account.id, account),
    });
  }

  private changeAccount(accountId: string, change: (account: Account) => Account): void {
    const accounts = this.tables.accounts;
    this.stage({
      check: () => {
        if (!accounts.has(accountId)) throw missing('account', accountId);
      },
      apply: () => accounts.put(accountId, change(accounts.get(accountId) as Account)),
    });
  }

  /**
   * Sets an account's password hash. `revokeTokens` ends every token issued before (a changed
   * password); `provesEmail` marks the address verified (the ticket came by e-mail).
   */
  setPassword(accountId: string, hash: string, options: { revokeTokens: boolean; provesEmail: boolean }): void {
    this.changeAccount(accountId, (account) => ({
      ...account,
      password_hash: hash,
      token_version: account.token_version + (options.revokeTokens ? 1 : 0),
      email_verified: account.email_verified || options.provesEmail,
    }));
  }

  verifyEmail(accountId: string): void {
    this.changeAccount(accountId, (account) => ({ ...account, email_verified: true }));
  }

  renameAccount(accountId: string, fullName: string): void {
    this.changeAccount(accountId, (account) => ({ ...account, full_name: fullName }));
  }

  // --- Registration codes, password tickets, ended login sessions.

  /** The code state of an address (the lower-cased address), replacing the one before. */
  recordOtp(email: string, state: OtpState): void {
    this.stage({ apply: () => this.tables.otps.put(email, state) });
  }

  dropOtp(email: string): void {
    this.stage({ apply: () => this.tables.otps.remove(email) });
  }

  /** A ticket under the SHA-256 of what was mailed (the database never holds a usable ticket). */
  putTicket(hash: string, ticket: ResetTicket): void {
    this.stage({ apply: () => this.tables.tickets.put(hash, ticket) });
  }

  dropTicket(hash: string): void {
    this.stage({ apply: () => this.tables.tickets.remove(hash) });
  }

  /** A login session ended by logout, kept until `until` (ms), when its last token expires anyway. */
  endSession(sessionId: string, until: number): void {
    this.stage({ apply: () => this.tables.endedSessions.put(sessionId, until) });
  }

  forgetEndedSession(sessionId: string): void {
    this.stage({ apply: () => this.tables.endedSessions.remove(sessionId) });
  }

  // --- Files, page visits, mail.

  /** The metadata of an uploaded file, whose bytes are already stored (store/blobs.ts). */
  addFile(file: StoredFile): void {
    this.stage({
      check: (room) => {
        if (this.tables.files.has(file.id)) throw present('file', file.id);
        room.file(file.size);
      },
      apply: () => {
        this.tables.files.put(file.id, file);
        this.tables.fileBytes += file.size;
      },
    });
  }

  /** A page visit; past the count limit the oldest visits of the app roll off. */
  addPageVisit(appId: string, visit: PageVisit): void {
    this.stage({
      apply: () => {
        this.tables.knowApp(appId);
        const visits = this.tables.pageVisits(appId);
        visits.put(visit.id, visit);
        while (visits.size > MAX_PAGE_VISITS_PER_APP) visits.remove(visits.oldestId() as string);
      },
    });
  }

  /** A mail into the outbox; a caller's must fit (413), the emulator's own make room. */
  sendMail(mail: SentEmail, sender: MailSender): void {
    const bytes = jsonBytes(mail);
    this.stage({
      check: (room) => room.mail(mail, bytes, sender === 'caller'),
      apply: () => putMail(this.tables.mails, mail, bytes),
    });
  }

  clearOutbox(): void {
    const mails = this.tables.mails;
    this.stage({
      apply: () => {
        for (const id of mails.all().map((mail) => mail.id)) mails.remove(id);
      },
    });
  }
}
