import { Collection } from './collection';

/**
 * The growing shared state, kept as one database row per entry: the outbox and file metadata (for
 * the whole emulator, app ''), and per app the conversations and page visits. Each list is a
 * `Collection` whose changes the durable writer picks up one entry at a time.
 */

export const ENTRY_KINDS = {
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
  private readonly lists = new Map<string, Collection<object>>();

  constructor(private readonly onChange: (kind: EntryKind, app: string, id: string) => void) {}

  list<T extends object>(kind: EntryKind, app: string): Collection<T> {
    const key = JSON.stringify([kind, app]);
    let list = this.lists.get(key);
    if (!list) {
      list = new Collection<object>((id) => this.onChange(kind, app, id));
      this.lists.set(key, list);
    }
    return list as Collection<T>;
  }

  current(kind: string, app: string, id: string): object | undefined {
    return this.lists.get(JSON.stringify([kind, app]))?.get(id);
  }
}
