import { invalidInput } from '../core/errors';
import { readJsonBody, readJsonObject, readMultipart } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { parseListQuery } from '../query/list-query';
import { deleteMatching, deleteRecord, updateRecord } from '../records/changes';
import { createBulk, createRecord } from '../records/creates';
import { importRecords, type ImportFile } from '../records/import';
import { listRecords, readOne } from '../records/reads';
import { ignoredUserBulkCreation, ignoredUserCreation } from '../records/users';
import { registerEntityBulkWriteRoutes } from './entity-bulk-writes';
import { registerEntityReadRoutes } from './entity-reads';
import { scopeOf } from './entity-request';

/**
 * The generic entity API, for the entities the app defines (any name in a schemaless app) and the
 * built-in `User`: HTTP in and out only. Reading, validating, the row and field rules, the byte
 * budget, the commit and the real-time publish all happen in the records layer (emulator/records/).
 */

async function readImportFile(context: EmulatorContext, request: RouteRequest): Promise<ImportFile> {
  if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw invalidInput('Import expects a multipart upload with a "file" part', 'invalid_body');
  }
  const form = await readMultipart(request.raw, context.bodyLimitBytes);
  const file = form.get('file');
  if (!(file instanceof Blob))
    throw invalidInput('Import expects a multipart upload with a "file" part', 'missing_file');
  return { name: file instanceof File ? file.name : '', type: file.type, text: await file.text() };
}

function registerCreateRoutes(router: Router, context: EmulatorContext, base: string): void {
  router.add('POST', base, async (request) => {
    const target = scopeOf(context, request);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    // Users are added by registration, login or invitation: a create of one stores nothing (200).
    if (target.users) return jsonReply(200, ignoredUserCreation(context, target, body));
    return jsonReply(201, await request.clock.run(() => createRecord(context, target, body)));
  });

  router.add('POST', `${base}/bulk`, async (request) => {
    const target = scopeOf(context, request);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    if (target.users) return jsonReply(200, ignoredUserBulkCreation(target));
    return jsonReply(201, await request.clock.run(() => createBulk(context, target, body)));
  });

  router.add('POST', `${base}/import`, async (request) => {
    const target = scopeOf(context, request);
    const file = await readImportFile(context, request);
    return jsonReply(201, await request.clock.run(() => importRecords(context, target, file)));
  });
}

export function registerEntityRoutes(router: Router, context: EmulatorContext): void {
  const base = '/api/apps/:appId/entities/:entity';
  // First: their literal segments (count, bulk, v2/list...) must win over `:id`.
  registerEntityReadRoutes(router, context, base);
  registerEntityBulkWriteRoutes(router, context, base);
  registerCreateRoutes(router, context, base);

  router.add('GET', base, (request) => {
    const target = scopeOf(context, request);
    return jsonReply(200, listRecords(context, target, parseListQuery(request.url.searchParams)));
  });

  router.add('GET', `${base}/:id`, (request) =>
    jsonReply(200, readOne(context, scopeOf(context, request), request.params.id as string)),
  );

  router.add('PUT', `${base}/:id`, async (request) => {
    const target = scopeOf(context, request);
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    return jsonReply(
      200,
      await request.clock.run(() => updateRecord(context, target, request.params.id as string, body)),
    );
  });

  router.add('DELETE', `${base}/:id`, async (request) =>
    jsonReply(200, await deleteRecord(context, scopeOf(context, request), request.params.id as string)),
  );

  router.add('DELETE', base, async (request) => {
    const target = scopeOf(context, request);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    return jsonReply(200, await request.clock.run(() => deleteMatching(context, target, body)));
  });
}
