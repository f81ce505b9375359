import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
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
