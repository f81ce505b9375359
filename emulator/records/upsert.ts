import { forbidden, invalidInput } from '../core/errors';
import { checkFieldPath } from '../core/json-guard';
import type { EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { valueAt } from '../query/engine';
import { isJsonObject } from '../util/json-object';
import { changedAnswer, requireBatch } from './changes';
import { commitChanges, type RecordChange } from './commit';
import { createdAnswer, draftRecord, requireCreatable } from './creates';
import { userFields } from './fields';
import { readable, storedBehind } from './reads';
import { gate, keptFields, permissionDenied, type RecordScope } from './scope';

/**
 * `upsert(records, { key })`: each record updates the one with the same key, or creates it. Keys are
 * matched on what the caller may read, so a hidden record or field cannot be probed; an existing
 * record is changed only under its update rule. Within one call the last record of a key wins (later
 * items merge into the earlier result), and a record the call creates is judged by the create rule
 * as it will finally be stored, so a later item cannot turn it into one the rule refuses.
 */

function keyOf(record: Record<string, unknown>, keys: readonly string[]): string | null {
  const values = keys.map((key) => valueAt(record, key));
  return values.some((value) => value === undefined) ? null : JSON.stringify(values);
}

function parseKey(scope: RecordScope, value: unknown): string[] {
  const keys = Array.isArray(value) ? value : [value];
  if (keys.length === 0 || keys.length > 10 || !keys.every((key): key is string => typeof key === 'string')) {
    throw invalidInput('upsert needs key: a field name or a list of field names', 'invalid_key');
  }
  const paths = keys.map((key) => checkFieldPath(key, 'The upsert key', 'invalid_key'));
  scope.model.requireKnownPaths(paths, 'The upsert key');
  return paths;
}

/** The stored records the caller may read, by key (the first of a key wins, as a filter would find it). */
function existingByKey(context: EmulatorContext, scope: RecordScope, keys: readonly string[]) {
  const views = readable(context, scope);
  const existing = new Map<string, EntityRecord>();
  storedBehind(context, scope, views).forEach((record, index) => {
    const key = keyOf(views[index] as EntityRecord, keys);
    if (key !== null && !existing.has(key)) existing.set(key, record);
  });
  return existing;
}

function mergedInto(
  context: EmulatorContext,
  scope: RecordScope,
  current: EntityRecord,
  fields: Record<string, unknown>,
) {
  const merged = { ...current, ...scope.model.forUpdate(fields), updated_date: context.nowIso() };
  return scope.rules.keepUnwritable(current, merged);
}

/** The changes the items make, one per key, in the order the keys first appear. */
function planUpsert(
  context: EmulatorContext,
  scope: RecordScope,
  items: readonly Record<string, unknown>[],
  keys: readonly string[],
): RecordChange[] {
  const existing = existingByKey(context, scope, keys);
  const written = new Map<string, RecordChange>();
  items.forEach((fields, index) => {
    const key = keyOf(fields, keys);
    if (key === null) throw invalidInput(`Record ${index} lacks a value for the key ${keys.join(', ')}`, 'missing_key');
    const before = written.get(key);
    const stored = existing.get(key);
    if (!before && stored && !scope.rules.allows('update', stored)) throw permissionDenied(scope, 'update');
    const current = before?.record ?? stored;
    const record = current ? mergedInto(context, scope, current, fields) : draftRecord(context, scope, fields);
    written.set(key, { type: before?.type ?? (current ? 'update' : 'create'), record });
  });
  const changes = [...written.values()];
  for (const change of changes) if (change.type === 'create') requireCreatable(scope, change.record);
  return changes;
}

/**
 * Permission before the body's shape, as for updateMany and deleteMany: a caller whose rules admit
 * neither a create nor an update learns nothing from a 400 about what it sent.
 */
export async function upsertRecords(context: EmulatorContext, scope: RecordScope, body: unknown) {
  gate(scope, 'create');
  if (scope.users) throw forbidden('upsert is not available for users; update them one by one', 'use_user_routes');
  if (scope.rules.deniesEveryRecord('create') && scope.rules.deniesEveryRecord('update'))
    throw permissionDenied(scope, 'create');
  if (!isJsonObject(body)) throw invalidInput('upsert needs { records, key }', 'invalid_body');
  const keys = parseKey(scope, body.key);
  const items = requireBatch(body.records, 'records').map((item, index) =>
    userFields(item, `Record ${index}`, keptFields(scope)),
  );
  const changes = planUpsert(context, scope, items, keys);
  await commitChanges(context, scope.app.id, scope.entity, changes);
  const created = changes.filter((change) => change.type === 'create').length;
  return {
    created,
    updated: changes.length - created,
    records: changes.map((change) =>
      change.type === 'create' ? createdAnswer(scope, change.record) : changedAnswer(scope, change.record),
    ),
  };
}
