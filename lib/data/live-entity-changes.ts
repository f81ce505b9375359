/**
 * Applying an entity change to a cached list without asking the server, where that can be done
 * exactly. Only the platform's default listing qualifies (no filter, sort or limit: newest first by
 * `created_date`, at most {@link SERVER_DEFAULT_LIMIT} records); for anything else the list is
 * refetched instead of guessed. Applying a change twice gives the same list, so replays are safe.
 */
import type { EntityChangeEvent, EntityRecord } from '@/lib/sdk';

/** The platform's default page size (docs/PLATFORM-NOTES.md "HTTP": `limit`, server default 50). */
export const SERVER_DEFAULT_LIMIT = 50;

function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((existing, at) => (at === index ? item : existing));
}

/**
 * The default listing after `change`, or null when only the server can say (the caller refetches).
 * A full page may hide records beyond it, so creates and deletes there are left to the server.
 */
export function applyToDefaultList<T extends object>(
  list: EntityRecord<T>[],
  change: EntityChangeEvent<T>,
  pageSize: number = SERVER_DEFAULT_LIMIT,
): EntityRecord<T>[] | null {
  const index = list.findIndex((record) => record.id === change.id);
  const full = list.length >= pageSize;
  switch (change.type) {
    case 'create':
      if (!change.data) return null;
      if (index !== -1) return replaceAt(list, index, change.data);
      // The newest record goes first (created within the same millisecond too, as the server sorts).
      return full ? null : [change.data, ...list];
    case 'update':
      if (index !== -1) return change.data ? replaceAt(list, index, change.data) : null;
      // A short list holds every record, so an unknown one means a missed create; a full page
      // simply does not show it (an update does not change created_date, so it stays out).
      return full ? list : null;
    case 'delete':
      if (index === -1) return list;
      // The server would move the next record up into the page.
      return full ? null : list.filter((_, at) => at !== index);
    default:
      return null;
  }
}
