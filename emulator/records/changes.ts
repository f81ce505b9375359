import { invalidInput } from '../core/errors';
import { isJsonObject } from '../core/json-guard';
import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import type { RowOperation } from '../model/security';
import { compileFilter } from '../query/engine';
import { commitChanges, type RecordChange } from './commit';
import { omitFields, userFields } from './fields';
import { matchingRecords, storedBehind } from './reads';
import { gate, keptFields, permissionDenied, recordNotFound, storedRecord, type RecordScope } from './scope';

/**
 * Changes to records the caller names by id (update, bulk update, delete) and deletes by filter.
 * Each operation is judged by its own rule, as on the platform: a record the caller may update (or
 * delete) is changed whether or not it may read it. One it may neither change nor read is a 404, so
 * its existence does not leak; one it may read but not change is a 403 (the vendor's backend
 * answers 404 there too: docs/EMULATOR-DEVIATIONS.md, `security-denied-change-403`).
 */

const MAX_PER_CALL = 500;

/** The stored record the caller means to update or delete. */
function findChangeable(
  context: EmulatorContext,
  scope: RecordScope,
  id: string,
  operation: Extract<RowOperation, 'update' | 'delete'>,
): EntityRecord {
  gate(scope, operation);
  const record = storedRecord(context, scope, id);
  if (scope.rules.allows(operation, record)) return record;
  if (scope.rules.view(record)) throw permissionDenied(scope, operation);
  throw recordNotFound(scope, id);
}

/**
 * A record after `update()` merged `body` into it: only the fields the caller may write, checked
 * by the schema (on `User`, its own rules say which fields an update sets, unchecked by a schema).
 */
function mergeUpdate(context: EmulatorContext, scope: RecordScope, record: EntityRecord, body: unknown): EntityRecord {
  const fields = userFields(body, 'The record', keptFields(scope));
  const sent = scope.users ? scope.users.changeOf(record, fields) : fields;
  const writable = omitFields(sent, scope.rules.unwritableFields(record));
  const checked = scope.users ? writable : scope.model.forUpdate(writable);
  return { ...record, ...checked, updated_date: context.nowIso() };
}

/** What the caller receives of a record it changed: its view, or only the id when it may not read it. */
export function changedAnswer(scope: RecordScope, record: EntityRecord): EntityRecord | { id: string } {
  return scope.rules.view(record) ?? { id: record.id };
}

export async function updateRecord(
  context: EmulatorContext,
  scope: RecordScope,
  id: string,
  body: unknown,
): Promise<EntityRecord | { id: string }> {
  const updated = mergeUpdate(context, scope, findChangeable(context, scope, id, 'update'), body);
  await commitChanges(context, scope.app.id, scope.entity, [{ type: 'update', record: updated }]);
  return changedAnswer(scope, updated);
}

export function requireBatch(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalidInput(`${what} must be a JSON array`, 'invalid_body');
  if (value.length > MAX_PER_CALL)
    throw invalidInput(`${what} may hold at most ${MAX_PER_CALL} records per call`, 'too_many_records');
  return value;
}

/** `bulkUpdate`: every item names an existing record the caller may update, or nothing changes. */
export async function updateBulk(
  context: EmulatorContext,
  scope: RecordScope,
  body: unknown,
): Promise<(EntityRecord | { id: string })[]> {
  const seen = new Set<string>();
  const changes: RecordChange[] = requireBatch(body, 'The bulk update body').map((item, index) => {
    if (!isJsonObject(item) || typeof item.id !== 'string')
      throw invalidInput(`Item ${index} needs an "id"`, 'invalid_body');
    if (seen.has(item.id)) throw invalidInput(`The id ${item.id.slice(0, 100)} appears twice`, 'duplicate_id');
    seen.add(item.id);
    const record = findChangeable(context, scope, item.id, 'update');
    return { type: 'update', record: mergeUpdate(context, scope, record, item) };
  });
  await commitChanges(context, scope.app.id, scope.entity, changes);
  return changes.map((change) => changedAnswer(scope, change.record));
}

export async function deleteRecord(context: EmulatorContext, scope: RecordScope, id: string) {
  const record = findChangeable(context, scope, id, 'delete');
  await commitChanges(context, scope.app.id, scope.entity, [{ type: 'delete', record }]);
  return { success: true, id: record.id };
}

/**
 * `deleteMany`: the filter sees only what the caller may read (it must not reveal what it cannot
 * read); of those, what its delete rule admits goes. A delete rule of `false` is a 403; a condition
 * no record meets (an anonymous caller's, say) deletes nothing.
 */
export async function deleteMatching(context: EmulatorContext, scope: RecordScope, body: unknown) {
  gate(scope, 'delete');
  // Permission before validation, as for updateMany.
  if (scope.rules.deniesEveryRecord('delete')) throw permissionDenied(scope, 'delete');
  if (!isJsonObject(body))
    throw invalidInput('deleteMany needs a filter object as the JSON body ({} deletes every record)', 'invalid_filter');
  const matches = compileFilter(body);
  const doomed = storedBehind(context, scope, matchingRecords(context, scope, matches)).filter((record) =>
    scope.rules.allows('delete', record),
  );
  await commitChanges(
    context,
    scope.app.id,
    scope.entity,
    doomed.map((record) => ({ type: 'delete', record })),
  );
  return { success: true, deleted: doomed.length };
}
