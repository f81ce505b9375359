/**
 * The entries of one kind (the records of one entity, the accounts, the mails, ...): a `Map` (fast,
 * insertion-ordered, no prototype, so no user key can be a built-in) that keeps the stored size of
 * every entry (its JSON bytes, so budgets cost nothing per check) and a cached list of the entries
 * for queries, rebuilt only after a change. `load`, `put` and `remove` are its only mutation points:
 * every change reaches the durable writer (and anything else that follows a collection) through
 * them. Only emulator/store/ holds a collection; others read through the store's named reads.
 */

/** The size a value takes as stored JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/**
 * Told of every change of an entry, loads included, with the entry before and after it (undefined
 * when absent): how indexes beside the records (query/indexes/) stay current.
 */
export interface CollectionObserver<T> {
  changed(id: string, before: T | undefined, after: T | undefined): void;
}

export class Collection<T> {
  private readonly entries = new Map<string, T>();
  private observer: CollectionObserver<T> | null = null;
  private list: T[] | null = null;
  private readonly sizes = new Map<string, number>();
  private totalBytes = 0;

  constructor(private readonly onChange: (id: string) => void) {}

  /** JSON bytes of all entries together. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Stored size of one entry (0 when absent). */
  sizeOf(id: string): number {
    return this.sizes.get(id) ?? 0;
  }

  private measure(id: string, value: T | undefined, knownSize: number | undefined): void {
    const size = value === undefined ? 0 : (knownSize ?? jsonBytes(value));
    this.totalBytes += size - this.sizeOf(id);
    if (value === undefined) this.sizes.delete(id);
    else this.sizes.set(id, size);
  }

  get(id: string): T | undefined {
    return this.entries.get(id);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Registers the one observer of this collection's changes (null stops it). */
  observe(observer: CollectionObserver<T> | null): void {
    this.observer = observer;
  }

  /** Loads a stored entry without reporting it as a change to the database. */
  load(id: string, value: T): void {
    this.set(id, value, undefined);
  }

  /** `size`: the value's JSON bytes when the caller has measured them already (`jsonBytes`). */
  put(id: string, value: T, size?: number): void {
    this.set(id, value, size);
    this.onChange(id);
  }

  private set(id: string, value: T, size: number | undefined): void {
    const before = this.observer ? this.entries.get(id) : undefined;
    this.measure(id, value, size);
    this.entries.set(id, value);
    this.list = null;
    this.observer?.changed(id, before, value);
  }

  remove(id: string): void {
    const before = this.entries.get(id);
    if (!this.entries.delete(id)) return;
    this.measure(id, undefined, 0);
    this.list = null;
    this.observer?.changed(id, before, undefined);
    this.onChange(id);
  }

  /** The id of the oldest entry (the first inserted still present), if any. */
  oldestId(): string | undefined {
    return this.entries.keys().next().value;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Every entry in insertion order (an update keeps its place). Do not modify the array. */
  all(): readonly T[] {
    this.list ??= [...this.entries.values()];
    return this.list;
  }

  /** Every id with its entry, in insertion order. */
  pairs(): IterableIterator<[string, T]> {
    return this.entries.entries();
  }
}
