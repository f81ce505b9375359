import type { EntityRecord } from '../core/types';
import type { ListQuery } from '../query/list-query';
import type { InsertionOrder, ListPosition } from '../query/pages';
import type { RecordScope } from '../records/scope';
import type { RequiredValues } from './live-query-candidates';
import { changeType, diffResults, windowEdit, type ResultEdit } from './live-query-diff';
import { compareKeys, compareRows, mergeRows, rowOf, sortKeysOf, type LiveRow } from './live-query-rows';

/**
 * The window of one live query as one caller's view sees it, shared by every watch with the same
 * query and view (docs/LIVE-QUERIES.md "Cost"): its rows in `filter()`'s order, kept up to date
 * from the records a write changed instead of by running the query again.
 *
 * An update takes the changed records out, puts each back where its current view sorts if it
 * matches, and cuts at `limit`. Rows beyond the window were never looked at, so when the window was
 * full with more rows behind it ({@link LiveWindow.complete} false) a changed record that now sorts
 * after the old last row is not trusted to be next, and a window left short asks the records
 * layer for just the rows after its new last row. Only a window marked stale (a failed update,
 * changed rules, a resync of its caller) is read again in full.
 */

export type WriteType = 'create' | 'update' | 'delete';

/** What caused a new result: a write (the first of those an update takes in), or a change of who the subscribers are. */
export interface Cause {
  type: WriteType | 'resync';
  id: string | undefined;
}

/** The cause of an update no write explains: the window read again for its caller. */
export const RESYNC: Cause = { type: 'resync', id: undefined };

/** What a window needs of the records layer, for the caller whose view it is. */
export interface WindowReader {
  /** The stored record with this id now; undefined when there is none. */
  stored(id: string): EntityRecord | undefined;
  /** The record as the window's subscribers see it; null when they may not read it. */
  view(record: EntityRecord): EntityRecord | null;
  /** The query's first `take` readable records after a row's place (from the start when null); null when that place cannot be told. */
  after(position: ListPosition | null, take: number): EntityRecord[] | null;
  order: InsertionOrder;
}

/** A watch's place in a window: the version its client holds, and those rows. */
export interface WindowSubscriber {
  version: number;
  held: readonly LiveRow[];
}

/** One update of a window: what its subscribers see changed (`edit`, from `from` to `to`). */
export interface WindowChange {
  from: number;
  to: number;
  /** The rows subscribers see now. */
  after: readonly LiveRow[];
  edit: ResultEdit<LiveRow>;
  cause: Cause;
  changeType: 'added' | 'modified' | 'removed';
  /** The written record as it is in the result now, if it is. */
  data: LiveRow | undefined;
}

/** The ids a window holds that it did not, and those it no longer holds (for finding candidates). */
export interface HeldChange {
  entered: string[];
  left: string[];
}

interface Rows {
  rows: LiveRow[];
  complete: boolean;
}

/** The window after an update from the changed records, and which of its rows that update made. */
interface Increment extends Rows {
  fresh: Set<LiveRow>;
}

/**
 * Rows kept beyond `limit`, unseen by subscribers: a row that leaves is replaced from them, so a
 * window reads the records again only after this many have left (more than have come in).
 */
export function reserveFor(limit: number): number {
  return Math.min(100, Math.max(10, limit));
}

export class LiveWindow {
  readonly subscribers = new Set<WindowSubscriber>();
  /** The rows kept: what subscribers see, then the reserve. */
  rows: readonly LiveRow[] = [];
  /** What subscribers see: the first `limit` rows. */
  shown: readonly LiveRow[] = [];
  /** Ids of the rows kept, for finding the windows a write touches. */
  readonly ids = new Set<string>();
  /** Every matching record is kept (none behind the last row). */
  complete = true;
  /** Counts changes of what subscribers see; one at an older version gets an edit of its own. */
  version = 0;
  /** The rules and schema the window was last read with (changed files make it stale). */
  definition: unknown;
  /** The scope it was last read with: whose rules decide, on a write, whether a record may enter. */
  scope: RecordScope | undefined;
  /** Records written since the last update, each with its first write there, in the order written. */
  dirty = new Map<string, WriteType>();
  /** Read again in full at the next update. */
  stale = false;
  /** An update is waiting in the work queue. */
  queued = false;
  private readonly capacity: number;

  constructor(
    readonly key: string,
    readonly appId: string,
    readonly entity: string,
    /** Whose view: `all` (no rule restricts the subscribers), or one caller's. */
    readonly viewKey: string,
    readonly query: ListQuery,
    readonly required: RequiredValues | undefined,
    /** The work queue's lane its updates run in (the budget owner that opened it). */
    readonly lane: string,
    reserve = reserveFor(query.limit),
  ) {
    this.capacity = query.limit + reserve;
  }

  /** The first reading: every row of the window from the records layer. */
  evaluate(reader: WindowReader): void {
    const { rows, complete } = this.readAll(reader);
    this.rows = rows;
    this.shown = rows.slice(0, this.query.limit);
    this.complete = complete;
    this.ids.clear();
    for (const row of rows) this.ids.add(row.id);
    this.dirty.clear();
    this.stale = false;
  }

  /**
   * Could a record matching the query, as this view sees it, enter the window now? Not if it sorts
   * after the last row kept while rows are behind it (then it changes nothing).
   */
  mayTake(view: EntityRecord): boolean {
    const last = this.rows.at(-1);
    if (this.complete || !last) return true;
    return compareKeys(sortKeysOf(view, this.query.sort), last.keys, this.query.sort) <= 0;
  }

  /** Takes in a write of one of its records (or of one that may enter) for the next update. */
  written(id: string, type: WriteType): void {
    if (!this.dirty.has(id)) this.dirty.set(id, type);
  }

  /**
   * What an update names as its cause: of the writes it takes in, the first whose record the edit
   * puts or removes (several writes can reach one update, and one of them may have changed only
   * the unseen reserve); else the first write; a resync when none.
   */
  causeOf(edit: ResultEdit<LiveRow> | null): Cause {
    const named = edit && new Set([...edit.remove, ...edit.put.map(({ row }) => row.id)]);
    let first: Cause | undefined;
    for (const [id, type] of this.dirty) {
      if (named?.has(id)) return { type, id };
      first ??= { type, id };
    }
    return first ?? RESYNC;
  }

  /**
   * Brings the window up to date with the records written since the last update; answers what the
   * subscribers see change (null: nothing) and which records the window holds now.
   */
  update(reader: WindowReader): { change: WindowChange | null; held: HeldChange } {
    const incremental = this.stale ? null : this.incremental(reader, this.dirty);
    const next = incremental ?? this.readAll(reader);
    const shown = next.rows.slice(0, this.query.limit);
    // Read again in full: every row is new, so the rows are compared; else only the changed ones.
    const edit = incremental
      ? windowEdit(this.shown, shown, this.dirty, incremental.fresh, (was, now) => this.sameContent(was, now))
      : diffResults(this.shown, shown);
    const cause = this.causeOf(edit);
    // Only once everything is known: a failure above leaves the window as it was (and stale).
    const type = edit && changeType(idsOf(this.shown), idsOf(shown), cause.id, edit);
    const held = this.hold(next.rows);
    this.rows = next.rows;
    this.shown = shown;
    this.complete = next.complete;
    this.dirty = new Map();
    this.stale = false;
    if (!edit || !type) return { change: null, held };
    this.version += 1;
    const data = cause.id === undefined ? undefined : shown.find((row) => row.id === cause.id);
    return {
      change: { from: this.version - 1, to: this.version, after: shown, edit, cause, changeType: type, data },
      held,
    };
  }

  /** Keeps the ids of the new rows; answers which entered and which left. */
  private hold(rows: readonly LiveRow[]): HeldChange {
    const now = idsOf(rows);
    const entered = [...now].filter((id) => !this.ids.has(id));
    const left = [...this.ids].filter((id) => !now.has(id));
    for (const id of left) this.ids.delete(id);
    for (const id of entered) this.ids.add(id);
    return { entered, left };
  }

  private sameContent(was: LiveRow, now: LiveRow): boolean {
    return compareKeys(was.keys, now.keys, this.query.sort) === 0 && was.json === now.json;
  }

  private readAll(reader: WindowReader): Rows {
    const views = reader.after(null, this.capacity + 1) ?? [];
    const rows = views.slice(0, this.capacity).map((view) => rowOf(view, this.query));
    return { rows, complete: views.length <= this.capacity };
  }

  /** The window from its rows and the changed records alone, plus what it must read; null: read it all. */
  private incremental(reader: WindowReader, changed: ReadonlyMap<string, WriteType>): Increment | null {
    const { sort, limit, filter } = this.query;
    const compare = (left: LiveRow, right: LiveRow) => compareRows(left, right, sort, reader.order) ?? 0;
    const entering: LiveRow[] = [];
    for (const id of changed.keys()) {
      const stored = reader.stored(id);
      const view = stored && reader.view(stored);
      if (view && filter(view)) entering.push(rowOf(view, this.query));
    }
    entering.sort(compare);
    const fresh = new Set(entering);
    const kept = this.rows.filter((row) => !changed.has(row.id));
    let rows = mergeRows(kept, entering, compare);
    const last = this.rows.at(-1);
    if (!this.complete && last) {
      // Rows from the first changed one that may sort after the old last row on are not trusted.
      const cut = rows.findIndex((row) => changed.has(row.id) && !this.notAfter(row, last, changed, reader.order));
      if (cut >= 0) rows = rows.slice(0, cut);
    }
    if (rows.length > this.capacity) return { rows: rows.slice(0, this.capacity), complete: false, fresh };
    // Short of what subscribers see, with rows behind: read the next ones (and a new reserve).
    if (this.complete || rows.length >= limit) return { rows, complete: this.complete, fresh };
    const more = this.readMore(reader, rows);
    if (!more) return null;
    for (const row of more.rows.slice(rows.length)) fresh.add(row);
    return { ...more, fresh };
  }

  /** Does a changed row sort no later than the old last row (so that nothing unseen comes between)? */
  private notAfter(
    row: LiveRow,
    last: LiveRow,
    changed: ReadonlyMap<string, WriteType>,
    order: InsertionOrder,
  ): boolean {
    const byKeys = compareKeys(row.keys, last.keys, this.query.sort);
    if (byKeys !== 0 || row.id === last.id) return byKeys <= 0;
    // A changed last row's place among equal keys is not known (it may be gone, or written anew).
    if (changed.has(last.id)) return false;
    const byOrder = compareRows(row, last, this.query.sort, order);
    return byOrder !== undefined && byOrder < 0;
  }

  /**
   * Fills a window left short with the rows right after its last one, and only those. A record
   * written but not yet taken in may come back from the read while its older row is still here:
   * the row here stays (its write will move it), the read's is skipped.
   */
  private readMore(reader: WindowReader, rows: LiveRow[]): Rows | null {
    const need = this.capacity - rows.length;
    const present = new Set(rows.map((row) => row.id));
    const more: LiveRow[] = [];
    // The place of the last row as the window holds it (its record may have changed since).
    const last = rows.at(-1);
    let anchor: ListPosition | null = last ? { keys: last.keys, id: last.id } : null;
    for (;;) {
      const ask = need + 1 - more.length;
      const views = reader.after(anchor, ask);
      if (!views) return null;
      for (const view of views) if (!present.has(view.id)) more.push(rowOf(view, this.query));
      if (views.length < ask || more.length > need)
        return { rows: [...rows, ...more.slice(0, need)], complete: more.length <= need };
      const lastRead = views.at(-1) as EntityRecord;
      anchor = { keys: sortKeysOf(lastRead, this.query.sort), id: lastRead.id };
    }
  }
}

function idsOf(rows: readonly LiveRow[]): Set<string> {
  return new Set(rows.map((row) => row.id));
}
