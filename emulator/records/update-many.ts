import { forbidden, invalidInput } from '../core/errors';
import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { applyUpdateOperators, compileFilter } from '../query/engine';
import { prepareUpdate, touchedFields } from '../query/update-operators';
import { isJsonObject } from '../util/json-object';
import { commitChanges, type RecordChange } from './commit';
import { userFields } from './fields';
import { matchingRecords, storedBehind } from './reads';
import { gate, permissionDenied, type RecordScope } from './scope';

/**
 * `updateMany(query, data)`: MongoDB update operators on every record the query matches, 500 per
 * call (`has_more` says whether more remain). The query sees only what the caller may read, and of
 * those only what its update rule admits changes. Every field an operator names, whether it reads
 * it (`$rename`'s source, `$pull`'s array) or writes it, must be one the caller may both read and
 * write on every record the call changes; otherwise nothing changes (403): `$rename` of a field the
 * caller may not read into one it may would otherwise hand it the hidden value.
 */

const MAX_PER_CALL = 500;

function requireTouchable(scope: RecordScope, fields: readonly string[], records: readonly EntityRecord[]): void {
  for (const record of records) {
    const refused = fields.find((field) => !scope.rules.mayReadAndWrite(field, record));
    if (refused !== undefined)
      throw forbidden(
        `updateMany names the field "${refused}", which you may not read and change on every ${scope.entity} record it matches`,
        'field_permission_denied',
      );
  }
}

function operatedRecord(
  context: EmulatorContext,
  scope: RecordScope,
  record: EntityRecord,
  modifier: Record<string, Record<string, unknown>>,
): EntityRecord {
  const changed = scope.model.afterOperators(record, applyUpdateOperators(record, modifier));
  const updated: EntityRecord = {
    ...userFields(changed, `Record ${record.id}`),
    id: record.id,
    created_date: record.created_date,
    updated_date: context.nowIso(),
    created_by: record.created_by,
  };
  if (record.created_by_id !== undefined) updated.created_by_id = record.created_by_id;
  return scope.rules.keepUnwritable(record, updated);
}

export async function updateMatching(context: EmulatorContext, scope: RecordScope, body: unknown) {
  gate(scope, 'update');
  if (scope.users) throw forbidden('updateMany is not available for users; update them one by one', 'use_user_routes');
  // Permission before validation: a caller who may change nothing learns nothing about the schema or filters.
  if (scope.rules.deniesEveryRecord('update')) throw permissionDenied(scope, 'update');
  if (!isJsonObject(body) || !isJsonObject(body.query))
    throw invalidInput('updateMany needs { query, data } with a filter object as query', 'invalid_body');
  const matches = compileFilter(body.query);
  const modifier = prepareUpdate(body.data, context.nowIso());
  const matching = storedBehind(context, scope, matchingRecords(context, scope, matches)).filter((record) =>
    scope.rules.allows('update', record),
  );
  const batch = matching.slice(0, MAX_PER_CALL);
  requireTouchable(scope, touchedFields(modifier), batch);
  const changes: RecordChange[] = batch.map((record) => ({
    type: 'update',
    record: operatedRecord(context, scope, record, modifier),
  }));
  await commitChanges(context, scope.app.id, scope.entity, changes);
  return { success: true, updated: changes.length, has_more: matching.length > batch.length };
}
