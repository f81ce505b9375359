import { authorize, creatorOf, isPrivileged, requireSignedIn, type Caller } from '../auth/caller';
import type { EmulatorContext } from '../context';
import { forbidden, notFound } from '../core/errors';
import type { RouteRequest } from '../http/router';
import { RecordSecurity, type RowOperation } from '../model/security';
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
  /** Row- and field-level security of this entity for this caller (emulator/model/security.ts). */
  security: RecordSecurity;
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
    security: RecordSecurity.of(context.entities, app.id, entity, caller),
    records: context.store.existingCollection(app.id, entity) ?? dictionary<EntityRecord>(),
    list: () => context.store.recordsOf(app.id, entity),
  };
}

function recordNotFound(target: EntityScope, id: string) {
  return notFound(`${target.entity} ${id.slice(0, 100)} not found`, 'record_not_found');
}

/** The stored record (not the caller's view of it): only for checks and writes, never to answer. */
export function findRecord(target: EntityScope, id: string): EntityRecord {
  const record = ownValue(target.records, id);
  if (!record) throw recordNotFound(target, id);
  return record;
}

/** The stored record behind a view the caller got from `readable`. */
export function storedRecord(target: EntityScope, view: EntityRecord): EntityRecord {
  return findRecord(target, view.id);
}

/**
 * The stored record the caller means to update or delete: one it may not read is a 404 (its
 * existence does not leak), one it may read but not change a 403.
 */
export function findChangeable(target: EntityScope, id: string, operation: 'update' | 'delete'): EntityRecord {
  const record = findRecord(target, id);
  if (target.entity === 'User') return record;
  if (!target.security.view(record)) throw recordNotFound(target, id);
  if (!target.security.allows(operation, record)) throw permissionDenied(target, operation);
  return record;
}

export function permissionDenied(target: EntityScope, operation: RowOperation) {
  return forbidden(`You may not ${operation} this ${target.entity} record`, 'permission_denied');
}

/** What the caller receives of a record it wrote: its view, or only the id when it may not read it. */
export function shown(target: EntityScope, record: EntityRecord): EntityRecord | { id: string } {
  return target.security.view(record) ?? { id: record.id };
}

/**
 * Who may write at all: on an entity the project defines its rules decide, visitors included (as
 * on the platform: `rls.create: true` lets anyone submit); elsewhere a signed-in caller, and on
 * `User` an admin or the service role.
 */
export function requireWriter(target: EntityScope): void {
  if (target.security.defined) return;
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

/**
 * Every record the caller may read, as it may see them (hidden fields left out): the only input of
 * lists, pages, counts, distinct values, aggregates and the matching of bulk writes. On `User`
 * admins see everything, a user only itself.
 */
export function readable(target: EntityScope): readonly EntityRecord[] {
  const all = target.list();
  if (target.entity !== 'User') return target.security.views(all);
  if (isPrivileged(target.caller)) return all;
  requireSignedIn(target.caller);
  return all.filter((record) => mayReadUser(target, record));
}

/** One record as the caller sees it; a record it may not read is a 404, as if it did not exist. */
export function readOne(target: EntityScope, id: string): EntityRecord {
  const record = findRecord(target, id);
  if (target.entity === 'User') {
    if (!mayReadUser(target, record)) throw forbidden('You can only read your own user record', 'not_own_record');
    return record;
  }
  const view = target.security.view(record);
  if (!view) throw recordNotFound(target, id);
  return view;
}

function mayReadUser(target: EntityScope, record: EntityRecord): boolean {
  if (isPrivileged(target.caller)) return true;
  requireSignedIn(target.caller);
  return target.caller.kind === 'user' && target.caller.account.id === record.id;
}

/** A new record as the caller may create it: `rls.create` judged on it, unwritable fields dropped. */
export function draftRecord(
  context: EmulatorContext,
  target: EntityScope,
  fields: Record<string, unknown>,
): EntityRecord {
  const createdBy = creatorOf(target.caller);
  const createdById = creatorIdOf(target.caller);
  const now = context.nowIso();
  // Field rules are judged on the record as it would be; what the caller may not write is left out
  // before the schema sees it (required fields, defaults), then the row rule judges the result.
  const unwritable = target.security.unwritableFields(buildRecord(fields, createdBy, now, createdById));
  const draft = buildRecord(target.model.forCreate(omit(fields, unwritable)), createdBy, now, createdById);
  if (!target.security.allows('create', draft)) throw permissionDenied(target, 'create');
  return draft;
}

function omit(fields: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  if (names.length === 0) return fields;
  const kept = { ...fields };
  for (const name of names) delete kept[name];
  return kept;
}

/** Creates every item or none (a refused one refuses the batch); answers with the caller's views. */
export async function insertAll(
  context: EmulatorContext,
  target: EntityScope,
  items: Record<string, unknown>[],
): Promise<(EntityRecord | { id: string })[]> {
  const created = items.map((fields) => draftRecord(context, target, fields));
  await storeAndPublish(
    context,
    target,
    created.map((record) => ({ type: 'create', record })),
  );
  return created.map((record) => shown(target, record));
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

/** An update as `update()` does it: merge the given fields the caller may write (User: its own rules). */
export function mergeUpdate(
  context: EmulatorContext,
  target: EntityScope,
  record: EntityRecord,
  body: Record<string, unknown>,
): EntityRecord {
  if (target.entity === 'User') return applyUserUpdate(context, target.caller, record, body);
  if (target.entity === 'User') return applyUserUpdate(context, target.caller, record, body);
  // Fields the caller may not write are left out before the schema sees the change.
  const fields = omit(userFields(body), target.security.unwritableFields(record));
  return { ...record, ...target.model.forUpdate(fields), updated_date: context.nowIso() };
}
