import { requireSignedIn } from '../auth/caller';
import type { EmulatorContext } from '../context';
import { invalidInput } from '../core/errors';
import { readJsonBody, readJsonObject, readMultipart } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EntityModel } from '../model/validate';
import { compileFilter } from '../query/engine';
import { parseCsvRecords } from '../store/csv';
import { parseListQuery, runListQuery } from '../store/query';
import { requireRecordList, userFields } from '../store/records';
import { isJsonObject } from '../util/json-object';
import { registerEntityBulkWriteRoutes } from './entity-bulk-writes';
import { registerEntityReadRoutes } from './entity-reads';
import {
  findChangeable,
  insertAll,
  mergeUpdate,
  permissionDenied,
  readable,
  readOne,
  refuseUserCreation,
  requireWriter,
  scope,
  shown,
  storeAndPublish,
  storedRecord,
} from './entity-scope';

/**
 * The generic entity API, for the entities the app defines (any name in a schemaless app); the
 * schema checks of every write live in model/validate.ts, reached through `target.model`, and the
 * row and field rules in model/security.ts, reached through `target.security` (these routes never
 * filter records themselves). The `User` entity is special: users see and
 * edit only themselves (never their role), admins and the service role manage everyone, and users
 * are only ever added by registration, login or invitation.
 */

async function readImportFile(
  context: EmulatorContext,
  request: RouteRequest,
  model: EntityModel,
): Promise<Record<string, unknown>[]> {
  if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw invalidInput('Import expects a multipart upload with a "file" part', 'invalid_body');
  }
  const form = await readMultipart(request.raw, context.bodyLimitBytes);
  const file = form.get('file');
  if (!(file instanceof Blob))
    throw invalidInput('Import expects a multipart upload with a "file" part', 'missing_file');
  const name = file instanceof File ? file.name.toLowerCase() : '';
  const text = await file.text();
  if (name.endsWith('.csv') || file.type === 'text/csv') {
    // Cells typed by the schema, then checked again: a JSON cell may hold anything.
    const rows = requireRecordList(parseCsvRecords(text), 'The CSV file');
    return rows.map((row, index) => userFields(model.fromCsv(row), `CSV row ${index + 2}`));
  }
  if (name.endsWith('.json') || file.type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      throw invalidInput('The JSON file is not valid JSON', 'invalid_json_file', (error as Error).message);
    }
    return requireRecordList(parsed, 'The JSON file');
  }
  throw invalidInput('Import accepts .csv or .json files', 'unsupported_file_type');
}

export function registerEntityRoutes(router: Router, context: EmulatorContext): void {
  const base = '/api/apps/:appId/entities/:entity';
  // First: their literal segments (count, bulk, v2/list...) must win over `:id`.
  registerEntityReadRoutes(router, context, base);
  registerEntityBulkWriteRoutes(router, context, base);

  router.add('GET', base, (request) => {
    const target = scope(context, request);
    const query = parseListQuery(request.url.searchParams);
    return jsonReply(200, runListQuery(readable(target), query));
  });

  router.add('GET', `${base}/:id`, (request) => {
    const target = scope(context, request);
    return jsonReply(200, readOne(target, request.params.id as string));
  });

  router.add('POST', base, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    refuseUserCreation(target);
    const fields = userFields(await readJsonBody(request.raw, context.bodyLimitBytes));
    const [record] = await insertAll(context, target, [fields]);
    return jsonReply(201, record);
  });

  router.add('POST', `${base}/bulk`, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    refuseUserCreation(target);
    const items = requireRecordList(await readJsonBody(request.raw, context.bodyLimitBytes), 'The bulk body');
    return jsonReply(201, await insertAll(context, target, items));
  });

  router.add('POST', `${base}/import`, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    refuseUserCreation(target);
    const items = await readImportFile(context, request, target.model);
    const records = await insertAll(context, target, items);
    return jsonReply(201, { imported: records.length, records });
  });

  router.add('PUT', `${base}/:id`, async (request) => {
    const target = scope(context, request);
    if (target.entity !== 'User')
      requireWriter(target); // User: each caller its own rules (user-me.ts)
    else requireSignedIn(target.caller);
    const record = findChangeable(target, request.params.id as string, 'update');
    const updated = mergeUpdate(context, target, record, await readJsonObject(request.raw, context.bodyLimitBytes));
    await storeAndPublish(context, target, [{ type: 'update', record: updated }]);
    return jsonReply(200, shown(target, updated));
  });

  router.add('DELETE', `${base}/:id`, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    const record = findChangeable(target, request.params.id as string, 'delete');
    await storeAndPublish(context, target, [{ type: 'delete', record }]);
    return jsonReply(200, { success: true, id: record.id });
  });

  router.add('DELETE', base, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    if (!isJsonObject(body)) {
      throw invalidInput(
        'deleteMany needs a filter object as the JSON body ({} deletes every record)',
        'invalid_filter',
      );
    }
    if (target.security.deniesEveryRecord('delete')) throw permissionDenied(target, 'delete');
    const matches = compileFilter(body);
    // The filter sees what the caller may read; of those, only what it may delete goes.
    const doomed = readable(target)
      .filter((view) => matches(view))
      .map((view) => storedRecord(target, view))
      .filter((record) => target.security.allows('delete', record));
    await storeAndPublish(
      context,
      target,
      doomed.map((record) => ({ type: 'delete', record })),
    );
    return jsonReply(200, { success: true, deleted: doomed.length });
  });
}
