import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import type { RecordPredicate } from '../query/engine';
import { CollectionIndexes } from '../query/indexes/collection-indexes';
import { countViews, readViews, type ReadResult, type ReadSource } from '../query/indexes/execute';
import type { ReadRequest } from '../query/indexes/planner';
import { project, type ListQuery } from '../query/list-query';
import { filterAfter, insertionOrderOf, pageOf, rankedAfter, type ListPosition, type Page } from '../query/pages';
import type { SortKey } from '../query/sort';
import { gate, recordNotFound, storedRecord, storedRecords, type RecordScope } from './scope';

/**
 * Reads, as the caller may see them: the only input of lists, pages, counts, distinct values,
 * aggregates and the matching of bulk writes. Records the caller may not read are not there; fields
 * it may not read are left out, so no filter, sort or key can see them either. Lists, pages, counts
 * and matches go through the query planner (query/indexes/), which answers exactly as a scan of
 * `readable` would, from indexes where they serve.
 */

/** Indexed besides the fields the entity's schema declares: the built-in fields queries name most. */
export const BUILT_IN_INDEXED_FIELDS = ['id', 'created_date', 'updated_date', 'created_by'] as const;

export function readable(context: EmulatorContext, scope: RecordScope): readonly EntityRecord[] {
  gate(scope, 'read');
  return scope.rules.views(storedRecords(context, scope));
}

/** The scope's stored records with their indexes (on the built-in fields and those its schema declares). */
function readSource(context: EmulatorContext, scope: RecordScope): ReadSource {
  gate(scope, 'read');
  const collection = context.store.recordCollection(scope.app.id, scope.entity);
  const lookup = context.entities.lookup(scope.app.id, scope.entity);
  const declared = lookup.kind === 'defined' ? [...lookup.definition.properties.keys()] : [];
  return {
    records: storedRecords(context, scope),
    indexes: collection ? CollectionIndexes.of(collection, [...BUILT_IN_INDEXED_FIELDS, ...declared]) : null,
  };
}

/** The first `request.take` records the caller may read that match, in order, with the plan used. */
export function readMatching(
  context: EmulatorContext,
  scope: RecordScope,
  request: ReadRequest,
  start?: unknown,
): ReadResult<EntityRecord[]> {
  return readViews(readSource(context, scope), scope.rules, request, start);
}

/** A list query's answer (`filter()`/`list()`): matches, sorted, skipped, limited, projected. */
export function listRecords(context: EmulatorContext, scope: RecordScope, query: ListQuery): Record<string, unknown>[] {
  const request = { filter: query.filter, sort: query.sort, take: query.skip + query.limit };
  return project(readMatching(context, scope, request).result.slice(query.skip), query.fields);
}

/** Every record the caller may read that matches, in insertion order (what bulk writes act on). */
export function matchingRecords(context: EmulatorContext, scope: RecordScope, filter: RecordPredicate) {
  return readMatching(context, scope, { filter, sort: null, take: Infinity }).result;
}

/** How many records the caller may read match. */
export function countRecords(
  context: EmulatorContext,
  scope: RecordScope,
  filter: RecordPredicate,
): ReadResult<number> {
  return countViews(readSource(context, scope), scope.rules, filter);
}

/** One keyset page: the records after `after` in the order of `keys` (the sort plus `id`). */
export function pageRecords(
  context: EmulatorContext,
  scope: RecordScope,
  options: {
    filter: RecordPredicate;
    keys: readonly SortKey[];
    fields: readonly string[] | null;
    limit: number;
    after: readonly unknown[] | null;
  },
): Page<Record<string, unknown>> {
  const { keys, after, limit } = options;
  const request = { filter: filterAfter(options.filter, keys, after), sort: keys, take: limit + 1 };
  const sorted = readMatching(context, scope, request, after?.[0]).result;
  return pageOf(sorted, { keys, fields: options.fields, limit });
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
 * (from the start when null; null when its place among equal keys cannot be told: query/pages.ts
 * rankedAfter). Read as a list is, through the planner, so a window read this way equals
 * `filter()`'s page and a refill reads about the rows it takes where an index serves the sort.
 */
export function readableAfter(
  context: EmulatorContext,
  scope: RecordScope,
  query: Pick<ListQuery, 'filter' | 'sort'>,
  after: ListPosition | null,
  take: number,
): EntityRecord[] | null {
  const read = (filter: RecordPredicate, wanted: number, start?: unknown) =>
    readMatching(context, scope, { filter, sort: query.sort, take: wanted }, start).result;
  return rankedAfter(
    read,
    query,
    after,
    take,
    insertionOrderOf(() => storedRecords(context, scope)),
  );
}
