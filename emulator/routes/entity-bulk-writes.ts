import type { EmulatorContext } from '../context';
import { forbidden, invalidInput } from '../core/errors';
import { readJsonBody } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import { applyUpdateOperators, compileFilter, valueAt } from '../query/engine';
import { checkFieldPath } from '../store/json-guard';
import { userFields } from '../store/records';
import { prepareUpdate } from '../store/update-operators';
import type { EntityRecord } from '../types';
import { isJsonObject } from '../util/json-object';
import {
  draftRecord,
  findChangeable,
  mergeUpdate,
  permissionDenied,
  readable,
  refuseUserCreation,
  requireWriter,
  scope,
  shown,
  storeAndPublish,
  storedRecord,
  type EntityScope,
  type RecordChange,
} from './entity-scope';

/**
 * Writes of @base44/sdk 0.8.50 on many records at once: `updateMany` (MongoDB update operators on
 * every match, 500 per call), `bulkUpdate` (each record its own fields) and `upsert` (create or
 * update by a key of your own). Every batch is validated as a whole before anything is stored,
 * and every changed record gets its real-time event.
 */

const MAX_PER_CALL = 500;

function requireList(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalidInput(`${what} must be a JSON array`, 'invalid_body');
  if (value.length > MAX_PER_CALL)
    throw invalidInput(`${what} may hold at most ${MAX_PER_CALL} records per call`, 'too_many_records');
  return value;
}

/** updateMany and upsert write through operators or keys that bypass the User rules: not for User. */
function refuseForUsers(target: EntityScope, call: string): void {
  if (target.entity === 'User')
    throw forbidden(`${call} is not available for users; update them one by one`, 'use_user_routes');
}

function keyOf(record: Record<string, unknown>, keys: readonly string[]): string | null {
  const values = keys.map((key) => valueAt(record, key));
  return values.some((value) => value === undefined) ? null : JSON.stringify(values);
}

function parseKey(value: unknown): string[] {
  const keys = Array.isArray(value) ? value : [value];
  if (keys.length === 0 || keys.length > 10 || !keys.every((key): key is string => typeof key === 'string')) {
    throw invalidInput('upsert needs key: a field name or a list of field names', 'invalid_key');
  }
  return keys.map((key) => checkFieldPath(key, 'The upsert key', 'invalid_key'));
}

export function registerEntityBulkWriteRoutes(router: Router, context: EmulatorContext, base: string): void {
  router.add('PATCH', `${base}/update-many`, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    refuseForUsers(target, 'updateMany');
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    if (!isJsonObject(body) || !isJsonObject(body.query))
      throw invalidInput('updateMany needs { query, data } with a filter object as query', 'invalid_body');
    const matches = compileFilter(body.query);
    const modifier = prepareUpdate(body.data, context.nowIso());
    if (target.security.deniesEveryRecord('update')) throw permissionDenied(target, 'update');
    // The query sees what the caller may read; of those, only what it may update changes.
    const matching = readable(target)
      .filter((view) => matches(view))
      .map((view) => storedRecord(target, view))
      .filter((record) => target.security.allows('update', record));
    const batch = matching.slice(0, MAX_PER_CALL);
    const changes: RecordChange[] = batch.map((record) => {
      const changed = target.model.afterOperators(record, applyUpdateOperators(record, modifier));
      const fields = userFields(changed, `Record ${record.id}`);
      const updated: EntityRecord = {
        ...fields,
        id: record.id,
        created_date: record.created_date,
        updated_date: context.nowIso(),
        created_by: record.created_by,
      };
      if (record.created_by_id !== undefined) updated.created_by_id = record.created_by_id;
      return { type: 'update', record: target.security.keepUnwritable(record, updated) };
    });
    await storeAndPublish(context, target, changes);
    return jsonReply(200, { success: true, updated: changes.length, has_more: matching.length > batch.length });
  });

  router.add('PUT', `${base}/bulk`, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    const items = requireList(await readJsonBody(request.raw, context.bodyLimitBytes), 'The bulk update body');
    const seen = new Set<string>();
    const changes: RecordChange[] = items.map((item, index) => {
      if (!isJsonObject(item) || typeof item.id !== 'string')
        throw invalidInput(`Item ${index} needs an "id"`, 'invalid_body');
      if (seen.has(item.id)) throw invalidInput(`The id ${item.id.slice(0, 100)} appears twice`, 'duplicate_id');
      seen.add(item.id);
      const record = findChangeable(target, item.id, 'update');
      return { type: 'update', record: mergeUpdate(context, target, record, item) };
    });
    await storeAndPublish(context, target, changes);
    return jsonReply(
      200,
      changes.map((change) => shown(target, change.record)),
    );
  });

  router.add('POST', `${base}/upsert`, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    refuseUserCreation(target);
    refuseForUsers(target, 'upsert');
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    if (!isJsonObject(body)) throw invalidInput('upsert needs { records, key }', 'invalid_body');
    const keys = parseKey(body.key);
    target.model.requireKnownPaths(keys, 'The upsert key');
    const items = requireList(body.records, 'records').map((item, index) => userFields(item, `Record ${index}`));
    // Keys are matched on what the caller may read, so a hidden record or field cannot be probed.
    const existing = new Map<string, EntityRecord>();
    for (const view of readable(target)) {
      const key = keyOf(view, keys);
      if (key !== null && !existing.has(key)) existing.set(key, storedRecord(target, view));
    }
    // Within one call the last record with a key wins: later items merge into the earlier result.
    const written = new Map<string, RecordChange>();
    items.forEach((fields, index) => {
      const key = keyOf(fields, keys);
      if (key === null)
        throw invalidInput(`Record ${index} lacks a value for the key ${keys.join(', ')}`, 'missing_key');
      const before = written.get(key);
      const stored = existing.get(key);
      if (!before && stored && !target.security.allows('update', stored)) throw permissionDenied(target, 'update');
      const current = before?.record ?? stored;
      const record = current
        ? target.security.keepUnwritable(current, {
            ...current,
            ...target.model.forUpdate(fields),
            updated_date: context.nowIso(),
          })
        : draftRecord(context, target, fields);
      written.set(key, { type: before?.type ?? (current ? 'update' : 'create'), record });
    });
    const changes = [...written.values()];
    await storeAndPublish(context, target, changes);
    const created = changes.filter((change) => change.type === 'create').length;
    return jsonReply(200, {
      created,
      updated: changes.length - created,
      records: changes.map((change) => shown(target, change.record)),
    });
  });
}
