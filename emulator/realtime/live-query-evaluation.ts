import type { Caller } from '../auth/caller';
import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { DEFAULT_QUERY_BUDGET_MS, withOwnQueryBudget } from '../query/budget';
import { runListQuery, type ListQuery } from '../query/list-query';
import { readable } from '../records/reads';
import { recordScope, type RecordScope } from '../records/scope';
import { toRows, type ResultRecord, type ResultRow } from './live-query-diff';

/**
 * A live query evaluated exactly as `filter()` over HTTP answers it, for the subscriber as it is now:
 * the records layer's reads (row rules: which records; field rules: which fields, `User`'s own
 * rules included), then the same engine, sort and projection. Each evaluation runs on its own
 * query budget (query/budget.ts).
 */

/** The subscriber's scope on the entity; an entity the app does not define is not found, as over HTTP. */
export function scopeFor(context: EmulatorContext, appId: string, entity: string, caller: Caller): RecordScope {
  const app = context.apps.get(appId);
  // access.ts checked the app before any query gets here.
  if (!app) throw new Error(`Unknown app ${appId}`);
  return recordScope(context, app, caller, entity);
}

/** The record as the subscriber sees it; null when it may not read it. */
export function viewFor(scope: RecordScope, record: EntityRecord): EntityRecord | null {
  return scope.rules.view(record);
}

/** Every record the subscriber may read, as it may see them: what `filter()` over HTTP starts from. */
export function readableFor(context: EmulatorContext, scope: RecordScope): readonly EntityRecord[] {
  return readable(context, scope);
}

export function evaluateQuery(query: ListQuery, readableRecords: readonly EntityRecord[]): ResultRow[] {
  return withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () =>
    toRows(runListQuery(readableRecords, query) as ResultRecord[]),
  );
}
