import { requireRole } from '../auth/accounts';
import { isPrivileged, requireSignedIn, type Caller } from '../auth/caller';
import { forbidden } from '../core/errors';
import { BUILT_IN_FIELDS, type EntityRecord } from '../core/types';
import type { RecordRules, RecordSecurity, RowOperation } from './security';

/**
 * The rules of the built-in `User` entity, in one place (docs.base44.com, API reference "Get app
 * user", "List app users", "Update app user", "Remove app user"; Entities → User schema):
 *
 * - A user reads and changes its own record; admins and the service role reach every user. The
 *   project's `User` definition (`user.jsonc`) adds row rules on other users' records, each
 *   operation judged by its own (`read`, `update`, `delete`, or `write` for the last two), which
 *   bind admins too but never the service role, and field rules, which bind every record, the
 *   caller's own included. A `create` rule is refused at load (entities/parse.ts): no user is
 *   created through the entity API, so it would bind nothing.
 * - Every user record shows the fields the SDK's `User` type lists as built in: `app_id`,
 *   `is_service` (false: users are people), `disabled` (null: nobody is disabled locally) and
 *   `is_verified` (false only for an invited address that has not signed in yet).
 * - An update merges the fields sent without checking them against the `User` schema; `email` and
 *   `full_name` belong to the account and are ignored, as are `id`, `collaborator_role` and the
 *   built-in fields (those of every record and the `User` type's own above). A role sent for the caller's own record is ignored (as the vendor's backend
 *   does); admins and the service role change other users' roles.
 * - Users are added by registration, login or invitation and removed by admins or the service
 *   role (records/users.ts); nobody creates a `User` record through the entity API.
 */

/** Only admins and the service role follow every change of users (the socket room of `User`). */
export function mayFollowUsers(caller: Caller): boolean {
  return isPrivileged(caller);
}

/** Fields of a `User` update that are not the caller's to set. */
const IGNORED_IN_UPDATES: ReadonlySet<string> = new Set([
  'email',
  'full_name',
  'id',
  'collaborator_role',
  'is_verified',
  'disabled',
  'is_service',
  'app_id',
  '_app_role',
]);

export class UserSecurity implements RecordRules {
  readonly defined = true;

  constructor(
    private readonly caller: Caller,
    /** The project's `User` definition, compiled for this caller (no rules when there is none). */
    private readonly project: RecordSecurity,
    private readonly appId: string,
  ) {}

  /** The record with the `User` type's built-in fields (a stored `is_verified: false` marks a pending invitation). */
  private withBuiltIns(record: EntityRecord): EntityRecord {
    const verified = typeof record.is_verified === 'boolean' ? record.is_verified : true;
    return { ...record, app_id: this.appId, is_service: false, disabled: null, is_verified: verified };
  }

  private isSelf(record: Record<string, unknown>): boolean {
    return this.caller.kind === 'user' && this.caller.account.id === record.id;
  }

  allows(operation: RowOperation, record: Record<string, unknown>): boolean {
    // Nobody creates a user record through the entity API, the service role included (an import
    // would otherwise store a `User` that belongs to no account).
    if (operation === 'create') return false;
    if (this.caller.kind === 'service') return true;
    if (this.caller.kind !== 'user') return false;
    const admin = isPrivileged(this.caller);
    switch (operation) {
      case 'read':
        return this.isSelf(record) || (admin && this.project.allows('read', record));
      case 'update':
        return this.isSelf(record) || (admin && this.project.allows('update', record));
      case 'delete':
        return admin && this.project.allows('delete', record);
    }
  }

  /**
   * Nobody creates users here; and where the project's `delete` rule (or `write`) is `false`, no
   * admin removes any (the service role is bound by no rule), so a `deleteMany` is refused (403)
   * rather than answered "0 deleted" as if nothing had matched.
   */
  deniesEveryRecord(operation: RowOperation): boolean {
    if (operation === 'create') return true;
    return operation === 'delete' && this.caller.kind !== 'service' && this.project.deniesEveryRecord('delete');
  }

  view(record: EntityRecord): EntityRecord | null {
    return this.allows('read', record) ? this.fieldView(record) : null;
  }

  views(records: readonly EntityRecord[]): readonly EntityRecord[] {
    const visible: EntityRecord[] = [];
    for (const record of records) {
      const view = this.view(record);
      if (view) visible.push(view);
    }
    return visible;
  }

  fieldView(record: EntityRecord): EntityRecord {
    return this.project.fieldView(this.withBuiltIns(record));
  }

  mayHideField(field: string): boolean {
    return this.project.mayHideField(field);
  }

  /** Only the service role reads every user (no project rule binds it). */
  get seesEverything(): boolean {
    return this.caller.kind === 'service';
  }

  mayReadAndWrite(field: string, record: Record<string, unknown>): boolean {
    return this.project.mayReadAndWrite(field, record);
  }

  unwritableFields(record: Record<string, unknown>): string[] {
    return this.project.unwritableFields(record);
  }

  keepUnwritable(before: EntityRecord, after: EntityRecord): EntityRecord {
    return this.project.keepUnwritable(before, after);
  }

  /**
   * Who may try an operation on users at all, before any record is looked up: a signed-in caller
   * reads and changes (its own record at least); only admins and the service role remove users.
   */
  gate(operation: RowOperation): void {
    requireSignedIn(this.caller);
    if (operation === 'delete' && !isPrivileged(this.caller))
      throw forbidden('Only admins and the service role remove users', 'admin_required');
  }

  /** The fields an update of `record` sets: what the caller may set of `fields`, unchecked by any schema. */
  changeOf(record: EntityRecord, fields: Record<string, unknown>): Record<string, unknown> {
    const change: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (IGNORED_IN_UPDATES.has(name) || BUILT_IN_FIELDS.has(name)) continue;
      if (name === 'role') {
        if (this.isSelf(record)) continue;
        change.role = requireRole(value);
      } else change[name] = value;
    }
    return change;
  }
}
