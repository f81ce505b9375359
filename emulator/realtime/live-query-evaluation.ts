import type { Caller } from '../auth/caller';
import { DomainError } from '../core/errors';
import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import type { ListQuery } from '../query/list-query';
import { insertionOrderOf } from '../query/pages';
import { readableAfter } from '../records/reads';
import { recordScope, storedRecord, storedRecords, type RecordScope } from '../records/scope';
import type { WindowReader } from './live-query-window';

/**
 * A live query read exactly as `filter()` over HTTP reads it, for the subscriber as it is now: the
 * records layer's reads (row rules: which records; field rules: which fields, `User`'s own rules
 * included), then the same engine and sort order; the window projects (live-query-rows.ts).
 */

/** The subscriber's scope on the entity; an entity the app does not define is not found, as over HTTP. */
export function scopeFor(context: EmulatorContext, appId: string, entity: string, caller: Caller): RecordScope {
  const app = context.apps.get(appId);
  // access.ts checked the app before any query gets here.
  if (!app) throw new Error(`Unknown app ${appId}`);
  return recordScope(context, app, caller, entity);
}

/** The stored record with this id (the records layer's lookup); undefined when there is none. */
function storedOrNothing(context: EmulatorContext, scope: RecordScope, id: string): EntityRecord | undefined {
  try {
    return storedRecord(context, scope, id);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'record_not_found') return undefined;
    throw error;
  }
}

/** What a window reads, through the records layer, as the subscriber of `scope` may see it. */
export function windowReader(context: EmulatorContext, scope: RecordScope, query: ListQuery): WindowReader {
  return {
    stored: (id) => storedOrNothing(context, scope, id),
    view: (record) => scope.rules.view(record),
    after: (afterId, take) => readableAfter(context, scope, query, afterId, take),
    order: insertionOrderOf(() => storedRecords(context, scope)),
  };
}
