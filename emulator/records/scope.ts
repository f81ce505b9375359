import { requireSignedIn, type Caller } from '../auth/caller';
import { forbidden, notFound } from '../core/errors';
import type { AppConfig, EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { recordRules } from '../model/rules';
import type { RecordRules, RowOperation } from '../model/security';
import { UserSecurity } from '../model/user-security';
import { entityModel, type EntityModel } from '../model/validate';
import { requireEntityName } from './fields';

/**
 * Who is asking about which entity: the caller, the entity's schema and the rules that bind this
 * caller on it. Every read and write of the records layer starts from one.
 */

export interface RecordScope {
  app: AppConfig;
  caller: Caller;
  entity: string;
  /** The entity's schema as the write paths apply it (pass-through when schemaless or `User`). */
  model: EntityModel;
  /** Row- and field-level rules of this entity for this caller (model/security.ts). */
  rules: RecordRules;
  /** The `User` entity's own rules (model/user-security.ts); null for every other entity. */
  users: UserSecurity | null;
}

/** The scope of `entity` for `caller`; an entity the app does not define is a 404 (as the platform answers). */
export function recordScope(context: EmulatorContext, app: AppConfig, caller: Caller, entity: string): RecordScope {
  const name = requireEntityName(entity);
  const model = entityModel(context.entities.lookup(app.id, name), name);
  const rules = recordRules(context.entities, app.id, name, caller);
  return { app, caller, entity: name, model, rules, users: rules instanceof UserSecurity ? rules : null };
}

/** Every stored record of the scope's entity, in insertion order (not the caller's view of them). */
export function storedRecords(context: EmulatorContext, scope: RecordScope): readonly EntityRecord[] {
  return context.store.recordsOf(scope.app.id, scope.entity);
}

export function recordNotFound(scope: RecordScope, id: string) {
  return notFound(`${scope.entity} ${id.slice(0, 100)} not found`, 'record_not_found');
}

export function permissionDenied(scope: RecordScope, operation: RowOperation) {
  return forbidden(`You may not ${operation} this ${scope.entity} record`, 'permission_denied');
}

/**
 * Which top-level fields a write of this scope keeps (records/fields.ts `userFields`): the schema's;
 * on `User` every field sent (its own rules say which an update sets, unchecked by a schema).
 */
export function keptFields(scope: RecordScope): (name: string) => boolean {
  return scope.users ? () => true : (name) => scope.model.keepsField(name);
}

/** The stored record (not the caller's view of it): only for checks and writes, never to answer. */
export function storedRecord(context: EmulatorContext, scope: RecordScope, id: string): EntityRecord {
  const record = context.store.record(scope.app.id, scope.entity, id);
  if (!record) throw recordNotFound(scope, id);
  return record;
}

/**
 * Who may try an operation at all, before any record is looked at: on an entity the project defines
 * its rules decide, visitors included (as on the platform: `rls.create: true` lets anyone submit);
 * on an undefined entity (schemaless test apps) writing needs a signed-in caller; `User` has its own.
 */
export function gate(scope: RecordScope, operation: RowOperation): void {
  if (scope.users) scope.users.gate(operation);
  else if (operation !== 'read' && !scope.rules.defined) requireSignedIn(scope.caller);
}
