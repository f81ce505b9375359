import { creatorIdOf, creatorOf } from '../auth/caller';
import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { commitChanges } from './commit';
import { buildRecord, omitFields, requireRecordList, userFields } from './fields';
import { gate, keptFields, permissionDenied, type RecordScope } from './scope';

/**
 * New records (create, bulk create, import; upsert's new keys use `draftRecord` too). The order is
 * the platform's: the create rule is judged on the record as the caller sent it, before the schema
 * (a caller without rights learns nothing about the schema: 403 before 422); then the fields it
 * may not write are dropped, the schema fills defaults and checks the rest, and the create rule is
 * judged again on the record exactly as it will be stored.
 */

/** A new record as the caller may create it; refuses (403) one the create rule does not admit. */
export function draftRecord(
  context: EmulatorContext,
  scope: RecordScope,
  fields: Record<string, unknown>,
): EntityRecord {
  gate(scope, 'create');
  const sent = buildRecord(fields, creatorOf(scope.caller), context.nowIso(), creatorIdOf(scope.caller));
  if (!scope.rules.allows('create', sent)) throw permissionDenied(scope, 'create');
  const { id, created_date, updated_date, created_by, created_by_id } = sent;
  const writable = omitFields(fields, scope.rules.unwritableFields(sent));
  const draft: EntityRecord = {
    ...scope.model.forCreate(writable),
    id,
    created_date,
    updated_date,
    created_by,
    created_by_id,
  };
  requireCreatable(scope, draft);
  return draft;
}

/** The create rule on a record exactly as it will be stored (every path that creates ends here). */
export function requireCreatable(scope: RecordScope, draft: EntityRecord): void {
  if (!scope.rules.allows('create', draft)) throw permissionDenied(scope, 'create');
}

/**
 * What the caller receives of a record it created: the record without the fields it may not read.
 * Its row read rule does not hide its own submission (an anonymous visitor sees what it sent).
 */
export function createdAnswer(scope: RecordScope, record: EntityRecord): EntityRecord {
  return scope.rules.fieldView(record);
}

/** Creates every item or none (a refused or invalid one refuses the batch); answers with the caller's views. */
export async function createRecords(
  context: EmulatorContext,
  scope: RecordScope,
  items: readonly Record<string, unknown>[],
): Promise<EntityRecord[]> {
  const created = items.map((fields) => draftRecord(context, scope, fields));
  await commitChanges(
    context,
    scope.app.id,
    scope.entity,
    created.map((record) => ({ type: 'create', record })),
  );
  return created.map((record) => createdAnswer(scope, record));
}

/** One create from a request body. */
export async function createRecord(context: EmulatorContext, scope: RecordScope, body: unknown): Promise<EntityRecord> {
  const [record] = await createRecords(context, scope, [userFields(body, 'The record', keptFields(scope))]);
  return record as EntityRecord;
}

/** A bulk create from a request body (a JSON array of records). */
export function createBulk(context: EmulatorContext, scope: RecordScope, body: unknown): Promise<EntityRecord[]> {
  return createRecords(context, scope, requireRecordList(body, 'The bulk body', keptFields(scope)));
}
