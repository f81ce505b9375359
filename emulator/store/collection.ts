/**
 * The records of one entity: a `Map` (fast, insertion-ordered, no prototype) behind an object
 * facade, because routes outside the store read and write collections as `records[id]`. The
 * facade reports every assignment and deletion (for the database) and keeps a cached list of the
 * records for queries, rebuilt only after a change.
 */

export class Collection<T> {
  private readonly records = new Map<string, T>();
  private list: T[] | null = null;
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

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  /** Loads a stored record without reporting it as a change. */
  load(id: string, record: T): void {
    this.records.set(id, record);
    this.list = null;
  }

  put(id: string, record: T): void {
    this.records.set(id, record);
    this.list = null;
    this.onChange(id);
  }

  remove(id: string): void {
    if (!this.records.delete(id)) return;
    this.list = null;
    this.onChange(id);
  }

  /** Every record in insertion order (an update keeps its place). Do not modify the array. */
  all(): readonly T[] {
    this.list ??= [...this.records.values()];
    return this.list;
  }
}
