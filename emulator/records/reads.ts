import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { rankedAfter, type ListPosition, type ListQuery } from '../query/list-query';
import { gate, recordNotFound, storedRecord, storedRecords, type RecordScope } from './scope';

/**
 * Reads, as the caller may see them: the only input of lists, pages, counts, distinct values,
 * aggregates and the matching of bulk writes. Records the caller may not read are not there; fields
 * it may not read are left out, so no filter, sort or key can see them either.
 */

export function readable(context: EmulatorContext, scope: RecordScope): readonly EntityRecord[] {
  gate(scope, 'read');
  return scope.rules.views(storedRecords(context, scope));
}

/** One record as the caller sees it; a record it may not read is a 404, as if it did not exist. */
export function readOne(context: EmulatorContext, scope: RecordScope, id: string): EntityRecord {
  gate(scope, 'read');
  const view = scope.rules.view(storedRecord(context, scope, id));
  if (!view) throw recordNotFound(scope, id);
  return view;
}

/** The stored records behind views the caller got from `readable` (for checks and writes only). */
export function storedBehind(context: EmulatorContext, scope: RecordScope, views: readonly EntityRecord[]) {
  return views.map((view) => storedRecord(context, scope, view.id));
}

/**
 * A live query's rows (realtime/live-query-window.ts): the first `take` records of `query` the
 * caller may read, as it sees them and unprojected, that come after `after` in the query's order
 * (from the start when null; null when the place among equal keys cannot be told: query/list-query.ts
 * rankedAfter). The same reading, matching and order as a list, so a window read this way equals
 * `filter()`'s page.
 */
export function readableAfter(
  context: EmulatorContext,
  scope: RecordScope,
  query: Pick<ListQuery, 'filter' | 'sort'>,
  after: ListPosition | null,
  take: number,
): EntityRecord[] | null {
  return rankedAfter(readable(context, scope), query, after, take);
}
