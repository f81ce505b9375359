import { Collection } from './collection';

/**
 * The state that is not records, kept as one database row per entry: for the whole emulator (app
 * '') the accounts, registration codes, reset tickets, ended login sessions, the outbox and file
 * metadata; per app the conversations and page visits. Each list is a `Collection` whose changes
 * the durable writer picks up one entry at a time, so a commit writes only the entries it touched.
 */

export const ENTRY_KINDS = {
  account: 'account',
  otp: 'otp',
  resetTicket: 'reset_ticket',
  endedSession: 'ended_session',
  outbox: 'outbox',
  file: 'file',
  conversation: 'conversation',
  pageVisit: 'page_visit',
} as const;

export type EntryKind = (typeof ENTRY_KINDS)[keyof typeof ENTRY_KINDS];

const KNOWN = new Set<string>(Object.values(ENTRY_KINDS));

export function isEntryKind(kind: string): kind is EntryKind {
  return KNOWN.has(kind);
}

export class EntryLists {
  private readonly lists = new Map<string, Collection<unknown>>();

  constructor(private readonly onChange: (kind: EntryKind, app: string, id: string) => void) {}

  list<T>(kind: EntryKind, app: string): Collection<T> {
    const key = JSON.stringify([kind, app]);
    let list = this.lists.get(key);
    if (!list) {
      list = new Collection<unknown>((id) => this.onChange(kind, app, id));
      this.lists.set(key, list);
    }
    return list as Collection<T>;
  }

  /** The entry as it is now (undefined when absent), without making an empty list. */
  current(kind: string, app: string, id: string): unknown {
    return this.lists.get(JSON.stringify([kind, app]))?.get(id);
  }
}
