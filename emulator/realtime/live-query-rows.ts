import type { EntityRecord } from '../core/types';
import { valueAt } from '../query/engine';
import { project, type ListQuery } from '../query/list-query';
import type { InsertionOrder } from '../query/pages';
import { compareSortKeys, sortKeyOf, type SortKey } from '../query/sort';
import type { ResultRecord, ResultRow } from './live-query-diff';

/**
 * The rows of a live query's window and their order, which must be exactly `filter()`'s
 * (query/sort.ts): the sort keys as MongoDB compares them (an array by its smallest element
 * ascending, its largest descending; mixed types by type first; a missing field as null), then
 * insertion order, reversed when the first key descends. Insertion order is the store's: asked
 * only when two rows tie on every key.
 */

/** One record of a window: the subscriber's view (what filters and sorts see), what it is sent, and its sort keys. */
export class LiveRow implements ResultRow {
  private text: string | undefined;

  constructor(
    readonly id: string,
    readonly view: EntityRecord,
    readonly record: ResultRecord,
    readonly keys: readonly unknown[],
  ) {}

  /** The JSON text the client holds, made once and only when a message or a comparison needs it. */
  get json(): string {
    this.text ??= JSON.stringify(this.record);
    return this.text;
  }
}

/** A record's sort keys, as sortRecords computes them. */
export function sortKeysOf(view: EntityRecord, sort: readonly SortKey[]): unknown[] {
  return sort.map((key) => sortKeyOf(valueAt(view, key.path), key.descending));
}

export function rowOf(view: EntityRecord, query: Pick<ListQuery, 'sort' | 'fields'>): LiveRow {
  const keys = sortKeysOf(view, query.sort);
  const record = (query.fields ? project([view], query.fields)[0] : view) as ResultRecord;
  return new LiveRow(view.id, view, record, keys);
}

/** Compares two records' sort keys alone: 0 on a tie. */
export function compareKeys(left: readonly unknown[], right: readonly unknown[], sort: readonly SortKey[]): number {
  for (let at = 0; at < sort.length; at += 1) {
    const diff = compareSortKeys(left[at], right[at]);
    if (diff !== 0) return (sort[at] as SortKey).descending ? -diff : diff;
  }
  return 0;
}

/**
 * The order of two rows in the result; undefined when they tie on every key and one of them is
 * no longer stored, so its place among equals cannot be known.
 */
export function compareRows(
  left: LiveRow,
  right: LiveRow,
  sort: readonly SortKey[],
  order: InsertionOrder,
): number | undefined {
  const byKeys = compareKeys(left.keys, right.keys, sort);
  if (byKeys !== 0 || left.id === right.id) return byKeys;
  const leftAt = order(left.id);
  const rightAt = order(right.id);
  if (leftAt === undefined || rightAt === undefined) return undefined;
  return sort[0]?.descending ? rightAt - leftAt : leftAt - rightAt;
}

/** Two sorted lists as one (rows of both are stored, so every tie has an answer). */
export function mergeRows(
  left: readonly LiveRow[],
  right: readonly LiveRow[],
  compare: (left: LiveRow, right: LiveRow) => number,
): LiveRow[] {
  if (right.length === 0) return [...left];
  const merged: LiveRow[] = [];
  let at = 0;
  for (const row of left) {
    while (at < right.length && compare(right[at] as LiveRow, row) < 0) merged.push(right[at++] as LiveRow);
    merged.push(row);
  }
  while (at < right.length) merged.push(right[at++] as LiveRow);
  return merged;
}
