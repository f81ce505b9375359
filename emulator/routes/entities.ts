import { authorize, creatorOf, isPrivileged, requireSignedIn, type Caller } from '../auth/caller';
import type { EmulatorContext } from '../context';
import { isPlainObject, readJsonBody, readJsonObject, readMultipart } from '../http/body';
import { badRequest, forbidden, notFound } from '../http/errors';
import { jsonReply } from '../http/reply';
import type { RouteRequest, Router } from '../http/router';
import type { AppConfig } from '../seed';
import { parseCsvRecords } from '../store/csv';
import { compileFilter } from '../query/engine';
import { parseListQuery, runListQuery } from '../store/query';
import { buildRecord, requireEntityName, requireRecordList, userFields } from '../store/records';
import type { EntityRecord } from '../store/store';
import { applyUserUpdate } from './user-me';

/**
 * The generic entity API. Any entity name works. Everyone who passes the app's access gate may read;
 * writing needs a signed-in user or the service role. The `User` entity is special: users see and
 * edit only themselves (never their role), admins and the service role manage everyone, and users
 * are only ever added by registration, login or invitation.
 */

interface EntityScope {
  app: AppConfig;
  caller: Caller;
  entity: string;
  /** The stored records; a detached empty object for an entity nobody wrote yet (reads create nothing). */
  records: Record<string, EntityRecord>;
}

function scope(context: EmulatorContext, request: RouteRequest): EntityScope {
  const { app, caller } = authorize(context, request.params.appId as string, request.headers);
  const entity = requireEntityName(request.params.entity as string);
  return { app, caller, entity, records: context.store.data.apps[app.id]?.entities[entity] ?? {} };
}

function findRecord(target: EntityScope, id: string): EntityRecord {
  const record = Object.prototype.hasOwnProperty.call(target.records, id) ? target.records[id] : undefined;
  if (!record) throw notFound(`${target.entity} ${id.slice(0, 100)} not found`, 'record_not_found');
  return record;
}

function requireWriter(target: EntityScope): void {
  requireSignedIn(target.caller);
  if (target.entity === 'User' && !isPrivileged(target.caller)) {
    throw forbidden('Only admins and the service role manage users', 'admin_required');
  }
}

function refuseUserCreation(target: EntityScope): void {
  if (target.entity === 'User') {
    throw forbidden('Users are added by registration, login or invitation (users/invite-user), not created directly', 'use_invite');
  }
}

/** What a caller may read of the User entity: admins everything, a user only itself. */
function readable(target: EntityScope): EntityRecord[] {
  const all = Object.values(target.records);
  if (target.entity !== 'User' || isPrivileged(target.caller)) return all;
  requireSignedIn(target.caller);
  const self = target.caller.kind === 'user' ? target.caller.account.id : '';
  return all.filter((record) => record.id === self);
}

async function insertAll(context: EmulatorContext, target: EntityScope, items: Record<string, unknown>[]): Promise<EntityRecord[]> {
  const createdBy = creatorOf(target.caller);
  const created = items.map((fields) => buildRecord(fields, createdBy, context.nowIso()));
  const records = context.store.collection(target.app.id, target.entity);
  for (const record of created) records[record.id] = record;
  await context.store.commit();
  for (const record of created) context.realtime.entityChanged(target.app.id, target.entity, 'create', record);
  return created;
}

async function readImportFile(context: EmulatorContext, request: RouteRequest): Promise<Record<string, unknown>[]> {
  if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw badRequest('Import expects a multipart upload with a "file" part', 'invalid_body');
  }
  const form = await readMultipart(request.raw, context.bodyLimitBytes);
  const file = form.get('file');
  if (!(file instanceof Blob)) throw badRequest('Import expects a multipart upload with a "file" part', 'missing_file');
  const name = file instanceof File ? file.name.toLowerCase() : '';
  const text = await file.text();
  if (name.endsWith('.csv') || file.type === 'text/csv') return requireRecordList(parseCsvRecords(text), 'The CSV file');
  if (name.endsWith('.json') || file.type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      throw badRequest('The JSON file is not valid JSON', 'invalid_json_file', (error as Error).message);
    }
    return requireRecordList(parsed, 'The JSON file');
  }
  throw badRequest('Import accepts .csv or .json files', 'unsupported_file_type');
}

export function registerEntityRoutes(router: Router, context: EmulatorContext): void {
  const base = '/api/apps/:appId/entities/:entity';

  router.add('GET', base, (request) => {
    const target = scope(context, request);
    const query = parseListQuery(request.url.searchParams);
    return jsonReply(200, runListQuery(readable(target), query));
  });

  router.add('GET', `${base}/:id`, (request) => {
    const target = scope(context, request);
    const record = findRecord(target, request.params.id as string);
    if (!readable(target).includes(record)) throw forbidden('You can only read your own user record', 'not_own_record');
    return jsonReply(200, record);
  });

  router.add('POST', base, async (request) => {
    const target = scope(context, request);
    requireSignedIn(target.caller);
    refuseUserCreation(target);
    const fields = userFields(await readJsonBody(request.raw, context.bodyLimitBytes));
    const [record] = await insertAll(context, target, [fields]);
    return jsonReply(201, record);
  });

  router.add('POST', `${base}/bulk`, async (request) => {
    const target = scope(context, request);
    requireSignedIn(target.caller);
    refuseUserCreation(target);
    const items = requireRecordList(await readJsonBody(request.raw, context.bodyLimitBytes), 'The bulk body');
    return jsonReply(201, await insertAll(context, target, items));
  });

  router.add('POST', `${base}/import`, async (request) => {
    const target = scope(context, request);
    requireSignedIn(target.caller);
    refuseUserCreation(target);
    const items = await readImportFile(context, request);
    const records = await insertAll(context, target, items);
    return jsonReply(201, { imported: records.length, records });
  });

  router.add('PUT', `${base}/:id`, async (request) => {
    const target = scope(context, request);
    requireSignedIn(target.caller);
    const record = findRecord(target, request.params.id as string);
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    const updated =
      target.entity === 'User'
        ? applyUserUpdate(context, target.caller, record, body)
        : { ...record, ...userFields(body), updated_date: context.nowIso() };
    target.records[record.id] = updated;
    await context.store.commit();
    context.realtime.entityChanged(target.app.id, target.entity, 'update', updated);
    return jsonReply(200, updated);
  });

  router.add('DELETE', `${base}/:id`, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    const record = findRecord(target, request.params.id as string);
    delete target.records[record.id];
    await context.store.commit();
    context.realtime.entityChanged(target.app.id, target.entity, 'delete', record);
    return jsonReply(200, { success: true, id: record.id });
  });

  router.add('DELETE', base, async (request) => {
    const target = scope(context, request);
    requireWriter(target);
    const body = await readJsonBody(request.raw, context.bodyLimitBytes);
    if (!isPlainObject(body)) {
      throw badRequest('deleteMany needs a filter object as the JSON body ({} deletes every record)', 'invalid_filter');
    }
    const matches = compileFilter(body);
    const doomed = Object.values(target.records).filter((record) => matches(record));
    for (const record of doomed) delete target.records[record.id];
    if (doomed.length > 0) await context.store.commit();
    for (const record of doomed) context.realtime.entityChanged(target.app.id, target.entity, 'delete', record);
    return jsonReply(200, { success: true, deleted: doomed.length });
  });
}
