import { DomainError } from '../core/errors';
import { checkStoredJson } from '../core/json-guard';
import type { SentEmail } from '../core/types';
import type { Collection } from './collection';

/**
 * The e-mail outbox: one database row per mail, within a count and a byte budget. Mails the
 * emulator sends itself (codes, reset and invitation tickets) always get in, the oldest mails
 * making room, so a full outbox never breaks a sign-in flow. A mail a caller asks for
 * (`Core.SendEmail`) is refused with 413 when it does not fit, and nothing changes.
 */

export const MAX_OUTBOX_MAILS = 10_000;
export const MAX_OUTBOX_BYTES = 32 * 1024 * 1024;

export type MailSender = 'emulator' | 'caller';

export class Outbox {
  constructor(private readonly mails: Collection<SentEmail>) {}

  add(mail: SentEmail, sender: MailSender): void {
    checkStoredJson(mail, 'The e-mail');
    const size = Buffer.byteLength(JSON.stringify(mail));
    const fits = () => this.mails.size < MAX_OUTBOX_MAILS && this.mails.bytes + size <= MAX_OUTBOX_BYTES;
    if (sender === 'caller' && !fits()) {
      throw new DomainError(
        'too_large',
        'outbox_full',
        `The outbox is full (${this.mails.size} mails, ${this.mails.bytes} bytes; at most ${MAX_OUTBOX_MAILS} mails and ${MAX_OUTBOX_BYTES} bytes). Clear it with DELETE /api/_emulator/outbox.`,
        { extraData: { limit_bytes: MAX_OUTBOX_BYTES, limit_mails: MAX_OUTBOX_MAILS } },
      );
    }
    for (let oldest = this.mails.oldestId(); oldest !== undefined && !fits(); oldest = this.mails.oldestId())
      this.mails.remove(oldest);
    this.mails.put(mail.id, mail);
  }

  /** Every mail, oldest first. Do not modify the array. */
  list(): readonly SentEmail[] {
    return this.mails.all();
  }

  /** Empties the outbox; returns how many mails it held. */
  clear(): number {
    const ids = this.mails.all().map((mail) => mail.id);
    for (const id of ids) this.mails.remove(id);
    return ids.length;
  }
}
