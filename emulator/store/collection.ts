/**
 * The records of one entity (or the entries of one shared list): a `Map` (fast, insertion-ordered,
 * no prototype) behind an object facade, because routes outside the store read and write
 * collections as `records[id]`. The facade reports every assignment and deletion (for the
 * database) and keeps a cached list of the records for queries, rebuilt only after a change. It
 * also keeps the stored size of every entry (its JSON bytes), so budgets cost nothing per check.
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
  private readonly records = new Map<string, T>();
  private observer: CollectionObserver<T> | null = null;
  private list: T[] | null = null;
  private readonly sizes = new Map<string, number>();
  /** JSON bytes of all entries together. */
  bytes = 0;
  /** The object view: `facade[id]`, `facade[id] = record`, `delete facade[id]`, `Object.values(facade)`. */
  readonly facade: Record<string, T>;

  constructor(private readonly onChange: (id: string) => void) {
    const records = this.records;
    const descriptor = (id: string): PropertyDescriptor => ({
      value: records.get(id),
      writable: true,
      enumerable: true,
      configurable: true,
    });
    this.facade = new Proxy(Object.create(null) as Record<string, T>, {
      get: (_target, id) => (typeof id === 'string' ? records.get(id) : undefined),
      has: (_target, id) => typeof id === 'string' && records.has(id),
      set: (_target, id, record: T) => {
        if (typeof id !== 'string') return false;
        this.put(id, record);
        return true;
      },
      deleteProperty: (_target, id) => {
        if (typeof id === 'string') this.remove(id);
        return true;
      },
      ownKeys: () => [...records.keys()],
      getOwnPropertyDescriptor: (_target, id) =>
        typeof id === 'string' && records.has(id) ? descriptor(id) : undefined,
      defineProperty: () => false,
      setPrototypeOf: () => false,
    });
  }

  /** Stored size of one entry (0 when absent). */
  sizeOf(id: string): number {
    return this.sizes.get(id) ?? 0;
  }

  private measure(id: string, record: T | undefined): void {
    const size = record === undefined ? 0 : jsonBytes(record);
    this.bytes += size - this.sizeOf(id);
    if (record === undefined) this.sizes.delete(id);
    else this.sizes.set(id, size);
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  /** Registers the one observer of this collection's changes (null stops it). */
  observe(observer: CollectionObserver<T> | null): void {
    this.observer = observer;
  }

  /** Loads a stored record without reporting it as a change to the database. */
  load(id: string, record: T): void {
    this.set(id, record);
  }

  put(id: string, record: T): void {
    this.set(id, record);
    this.onChange(id);
  }

  private set(id: string, record: T): void {
    const before = this.observer ? this.records.get(id) : undefined;
    this.measure(id, record);
    this.records.set(id, record);
    this.list = null;
    this.observer?.changed(id, before, record);
  }

  remove(id: string): void {
    const before = this.records.get(id);
    if (!this.records.delete(id)) return;
    this.measure(id, undefined);
    this.list = null;
    this.observer?.changed(id, before, undefined);
    this.onChange(id);
  }

  /** The id of the oldest entry (the first inserted still present), if any. */
  oldestId(): string | undefined {
    return this.records.keys().next().value;
  }

  get size(): number {
    return this.records.size;
  }

  /** Every entry with its id, in insertion order. */
  entries(): IterableIterator<[string, T]> {
    return this.records.entries();
  }

  /** Every record in insertion order (an update keeps its place). Do not modify the array. */
  all(): readonly T[] {
    this.list ??= [...this.records.values()];
    return this.list;
  }
}
