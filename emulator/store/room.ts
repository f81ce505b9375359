import { invalidInput } from '../core/errors';
import { checkStoredJson, MAX_RECORD_BYTES } from '../core/json-guard';
import type { EntityRecord, SentEmail } from '../core/types';
import {
  MAX_APP_CONVERSATION_BYTES,
  MAX_APP_RECORD_BYTES,
  MAX_CONVERSATION_BYTES,
  MAX_CONVERSATION_MESSAGES,
  MAX_FILE_BYTES,
  MAX_FILES,
  storageFull,
} from './budgets';
import { jsonBytes } from './collection';
import { requireOutboxRoom } from './outbox';
import type { StoreTables } from './tables';

/**
 * What one change would add, held against the budgets (budgets.ts, the outbox's) before anything
 * of it is applied: a change that does not fit is refused whole (413, or 400 for a full
 * conversation) and changes nothing. Sizes are those of the entries as they will be stored (a
 * record after any merge), so repeated updates cannot grow anything past its limit.
 */

interface ConversationGrowth {
  appId: string;
  id: string;
  bytes: number;
  messages: number;
}

/** Refuses (413) adding `count` files of `bytes` bytes past the files budget. */
export function requireFileRoom(tables: StoreTables, count: number, bytes: number): void {
  const held = tables.files.size;
  if (held + count > MAX_FILES)
    throw storageFull(`The uploaded files (${held}, at most ${MAX_FILES})`, tables.fileBytes, bytes, MAX_FILE_BYTES);
  if (tables.fileBytes + bytes > MAX_FILE_BYTES)
    throw storageFull('The uploaded files', tables.fileBytes, bytes, MAX_FILE_BYTES);
}

export class PlannedRoom {
  private readonly recordGrowth = new Map<string, number>();
  private readonly conversationGrowth = new Map<string, ConversationGrowth>();
  private readonly files = { count: 0, bytes: 0 };
  private readonly callerMails = { count: 0, bytes: 0 };

  constructor(private readonly tables: StoreTables) {}

  /** A record about to be written (`record`) or deleted (`record` undefined); answers its stored size. */
  record(appId: string, entity: string, id: string, record: EntityRecord | undefined): number {
    const size = record === undefined ? 0 : jsonBytes(record);
    if (size > MAX_RECORD_BYTES)
      throw storageFull(`${entity} ${id.slice(0, 100)}`, 0, size, MAX_RECORD_BYTES, 'record_too_large');
    const before = this.tables.existingRecords(appId, entity)?.sizeOf(id) ?? 0;
    this.recordGrowth.set(appId, (this.recordGrowth.get(appId) ?? 0) + size - before);
    return size;
  }

  /** A conversation growing (new or not) by `bytes` and `messages`. */
  conversation(appId: string, id: string, bytes: number, messages: number): void {
    const key = JSON.stringify([appId, id]);
    const growth = this.conversationGrowth.get(key) ?? { appId, id, bytes: 0, messages: 0 };
    growth.bytes += bytes;
    growth.messages += messages;
    this.conversationGrowth.set(key, growth);
  }

  file(bytes: number): void {
    this.files.count += 1;
    this.files.bytes += bytes;
  }

  /** A mail; one a caller asked for must fit (the emulator's own make room instead). */
  mail(mail: SentEmail, bytes: number, callerSent: boolean): void {
    checkStoredJson(mail, 'The e-mail');
    if (!callerSent) return;
    this.callerMails.count += 1;
    this.callerMails.bytes += bytes;
    requireOutboxRoom(this.tables.mails, this.callerMails.count, this.callerMails.bytes);
  }

  /** Throws unless every total fits. */
  verify(): void {
    for (const [appId, delta] of this.recordGrowth) {
      const used = this.tables.recordBytes(appId);
      if (delta > 0 && used + delta > MAX_APP_RECORD_BYTES)
        throw storageFull(`The records of app ${appId}`, used, delta, MAX_APP_RECORD_BYTES);
    }
    const perApp = new Map<string, number>();
    for (const growth of this.conversationGrowth.values()) {
      this.verifyConversation(growth);
      perApp.set(growth.appId, (perApp.get(growth.appId) ?? 0) + growth.bytes);
    }
    for (const [appId, added] of perApp) {
      const used = this.tables.conversations(appId).bytes;
      if (used + added > MAX_APP_CONVERSATION_BYTES)
        throw storageFull(`The conversations of app ${appId}`, used, added, MAX_APP_CONVERSATION_BYTES);
    }
    if (this.files.count > 0) requireFileRoom(this.tables, this.files.count, this.files.bytes);
  }

  private verifyConversation({ appId, id, bytes, messages }: ConversationGrowth): void {
    const conversations = this.tables.conversations(appId);
    const held = conversations.get(id)?.messages.length ?? 0;
    if (held + messages > MAX_CONVERSATION_MESSAGES)
      throw invalidInput(`A conversation holds at most ${MAX_CONVERSATION_MESSAGES} messages`, 'conversation_full');
    const own = conversations.sizeOf(id);
    if (own + bytes > MAX_CONVERSATION_BYTES)
      throw storageFull('The conversation', own, bytes, MAX_CONVERSATION_BYTES, 'conversation_too_large');
  }
}
