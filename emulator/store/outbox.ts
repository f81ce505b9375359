import { DomainError } from '../core/errors';
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

function fits(mails: Collection<SentEmail>, count: number, bytes: number): boolean {
  return mails.size + count <= MAX_OUTBOX_MAILS && mails.bytes + bytes <= MAX_OUTBOX_BYTES;
}

/** Refuses (413) a caller's mail of `bytes` when the outbox, with `count` mails and `bytes` added, would be past its budget. */
export function requireOutboxRoom(mails: Collection<SentEmail>, count: number, bytes: number): void {
  if (fits(mails, count, bytes)) return;
  throw new DomainError(
    'too_large',
    'outbox_full',
    `The outbox is full (${mails.size} mails, ${mails.bytes} bytes; at most ${MAX_OUTBOX_MAILS} mails and ${MAX_OUTBOX_BYTES} bytes). Clear it with DELETE /api/_emulator/outbox.`,
    { extraData: { limit_bytes: MAX_OUTBOX_BYTES, limit_mails: MAX_OUTBOX_MAILS } },
  );
}

/** Adds a mail, the oldest mails rolling off until it fits (a caller's mail was checked to fit already). */
export function putMail(mails: Collection<SentEmail>, mail: SentEmail, bytes: number): void {
  for (let oldest = mails.oldestId(); oldest !== undefined && !fits(mails, 1, bytes); oldest = mails.oldestId())
    mails.remove(oldest);
  mails.put(mail.id, mail);
}
