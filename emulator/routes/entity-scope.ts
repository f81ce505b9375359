import { authorize, creatorOf, isPrivileged, requireSignedIn, type Caller } from '../auth/caller';
import type { EmulatorContext } from '../context';
import { forbidden, notFound } from '../http/errors';
import type { RouteRequest } from '../http/router';
import { entityModel, type EntityModel } from '../model/validate';
import { buildRecord, requireEntityName, userFields } from '../store/records';
import { dictionary } from '../store/store';
import type { AppConfig, EntityRecord } from '../types';
import { ownValue } from '../util/own';
import { applyUserUpdate } from './user-me';

/** Who is asking about which entity, and the access rules every entity route shares. */

export interface EntityScope {
  app: AppConfig;
  caller: Caller;
  entity: string;
  /** The entity's schema as the write paths apply it (pass-through when schemaless). */
  model: EntityModel;
  /** The stored records; a detached empty object for an entity nobody wrote yet (reads create nothing). */
  records: Record<string, EntityRecord>;
  /** Every record in insertion order, from the store's cache. */
  list(): readonly EntityRecord[];
}

export function scope(context: EmulatorContext, request: RouteRequest): EntityScope {
  const { app, caller } = authorize(context, request.params.appId as string, request.headers);
  const entity = requireEntityName(request.params.entity as string);
  return {
    app,
    caller,
    entity,
    // An entity the app does not define is a 404 here, before any route reads or writes it.
    model: entityModel(context.entities.lookup(app.id, entity), entity),
    records: context.store.existingCollection(app.id, entity) ?? dictionary<EntityRecord>(),
    list: () => context.store.recordsOf(app.id, entity),
  };
}

export function findRecord(target: EntityScope, id: string): EntityRecord {
  const record = ownValue(target.records, id);
  if (!record) throw notFound(`${target.entity} ${id.slice(0, 100)} not found`, 'record_not_found');
  return record;
}

export function requireWriter(target: EntityScope): void {
  requireSignedIn(target.caller);
  if (target.entity === 'User' && !isPrivileged(target.caller)) {
    throw forbidden('Only admins and the service role manage users', 'admin_required');
  }
}

export function refuseUserCreation(target: EntityScope): void {
  if (target.entity === 'User') {
    throw forbidden(
      'Users are added by registration, login or invitation (users/invite-user), not created directly',
      'use_invite',
    );
  }
}

/** What a caller may read of the User entity: admins everything, a user only itself. */
export function readable(target: EntityScope): readonly EntityRecord[] {
  const all = target.list();
  if (target.entity !== 'User' || isPrivileged(target.caller)) return all;
  requireSignedIn(target.caller);
  return all.filter((record) => mayRead(target, record));
}

/** The same rule for one record, without listing the rest. */
export function mayRead(target: EntityScope, record: EntityRecord): boolean {
  if (target.entity !== 'User' || isPrivileged(target.caller)) return true;
  requireSignedIn(target.caller);
  return target.caller.kind === 'user' && target.caller.account.id === record.id;
}

export async function insertAll(
  context: EmulatorContext,
  target: EntityScope,
  items: Record<string, unknown>[],
): Promise<EntityRecord[]> {
  const createdBy = creatorOf(target.caller);
  const createdById = creatorIdOf(target.caller);
  const created = items.map((fields) =>
    buildRecord(target.model.forCreate(fields), createdBy, context.nowIso(), createdById),
  );
  await storeAndPublish(
    context,
    target,
    created.map((record) => ({ type: 'create', record })),
  );
  return created;
}

/** The `created_by_id` of a new record: the user's id; null for the service role. */
export function creatorIdOf(caller: Caller): string | null {
  return caller.kind === 'user' ? caller.account.id : null;
}

export interface RecordChange {
  type: 'create' | 'update' | 'delete';
  record: EntityRecord;
}

/**
 * Writes the changes, waits until they are durable, then tells real-time about every one of them.
 * Every write of a record passes here: the size limits apply to the record as stored, after a merge.
 */
export async function storeAndPublish(
  context: EmulatorContext,
  target: EntityScope,
  changes: readonly RecordChange[],
): Promise<void> {
  if (changes.length === 0) return;
  context.store.requireRecordRoom(
    target.app.id,
    changes.map(({ type, record }) => ({
      entity: target.entity,
      id: record.id,
      record: type === 'delete' ? undefined : record,
    })),
  );
  const records = context.store.collection(target.app.id, target.entity);
  for (const { type, record } of changes) {
    if (type === 'delete') delete records[record.id];
    else records[record.id] = record;
  }
  await context.store.commit();
  for (const { type, record } of changes) context.realtime.entityChanged(target.app.id, target.entity, type, record);
}

/** An update as `update()` does it: merge the given fields (User: only what the caller may change). */
export function mergeUpdate(
  context: EmulatorContext,
  target: EntityScope,
  record: EntityRecord,
  body: Record<string, unknown>,
): EntityRecord {
  if (target.entity === 'User') return applyUserUpdate(context, target.caller, record, body);
  return { ...record, ...target.model.forUpdate(userFields(body)), updated_date: context.nowIso() };
}
