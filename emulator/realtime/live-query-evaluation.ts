import type { Caller } from '../auth/caller';
import type { EmulatorContext } from '../context';
import { RecordSecurity } from '../model/security';
import { DEFAULT_QUERY_BUDGET_MS, withOwnQueryBudget } from '../query/budget';
import { runListQuery, type ListQuery } from '../store/query';
import type { EntityRecord } from '../types';
import { toRows, type ResultRecord, type ResultRow } from './live-query-diff';

/**
 * A live query evaluated exactly as `filter()` over HTTP answers it, for the subscriber as it is now:
 * the same records (row rules), the same view of each (field rules), the same engine, sort and
 * projection. Each evaluation runs on its own query budget (query/budget.ts).
 */

/** The record as the caller sees it; null when it may not read it. */
export function viewFor(
  context: EmulatorContext,
  appId: string,
  entity: string,
  caller: Caller,
  record: EntityRecord,
): EntityRecord | null {
  // Only admins and the service role follow `User` (access.ts checkEntityAccess); they read every user.
  if (entity === 'User') return record;
  return RecordSecurity.of(context.entities, appId, entity, caller).view(record);
}

/** Every record the caller may read, as it may see them: what `filter()` over HTTP starts from. */
export function readableFor(
  context: EmulatorContext,
  appId: string,
  entity: string,
  caller: Caller,
): readonly EntityRecord[] {
  const all = context.store.recordsOf(appId, entity);
  if (entity === 'User') return all;
  return RecordSecurity.of(context.entities, appId, entity, caller).views(all);
}

export function matchesQuery(query: ListQuery, view: EntityRecord): boolean {
  return withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () => query.filter(view));
}

export function evaluateQuery(query: ListQuery, readable: readonly EntityRecord[]): ResultRow[] {
  return withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () => toRows(runListQuery(readable, query) as ResultRecord[]));
}
