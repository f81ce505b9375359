import { DomainError } from '../core/errors';

/**
 * How much the emulator keeps, at most. Everything a caller can make it store has a byte budget (and
 * a count where entries are small); a write that would go past one is refused (too_large) and changes nothing.
 * Lists the emulator fills itself (the outbox's own mails, analytics, page visits) roll over
 * instead: the oldest entries make room. docs/emulator/LIMITS.md lists them all.
 */

/** JSON bytes of all records of one app, all entities together. */
export const MAX_APP_RECORD_BYTES = 256 * 1024 * 1024;
/** JSON bytes of one conversation (its messages included). */
export const MAX_CONVERSATION_BYTES = 4 * 1024 * 1024;
/** Messages in one conversation. */
export const MAX_CONVERSATION_MESSAGES = 10_000;
/** JSON bytes of all conversations of one app. */
export const MAX_APP_CONVERSATION_BYTES = 64 * 1024 * 1024;
/** Bytes of all uploaded files, and how many files. */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;
export const MAX_FILES = 100_000;
/** Page visits kept per app (each a page name and a user): the oldest roll off. */
export const MAX_PAGE_VISITS_PER_APP = 100_000;

export function storageFull(
  what: string,
  used: number,
  adding: number,
  limit: number,
  code = 'storage_full',
): DomainError {
  return new DomainError(
    'too_large',
    code,
    `${what} would hold ${used + adding} bytes; at most ${limit} may be stored. Nothing was changed.`,
    { extraData: { limit_bytes: limit, used_bytes: used } },
  );
}
