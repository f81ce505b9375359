import type { Caller } from '../auth/caller';
import { DomainError } from '../core/errors';
import type { EntityDefinitions, RowSecurity, SecurityRule } from '../entities/definition';
import type { RecordPredicate } from '../query/engine';
import type { EntityRecord } from '../types';
import { ALWAYS, compileRule, InvalidRule, NEVER, type RuleSubject } from './rule';

/**
 * Row- and field-level security of one entity for one caller: the one place that decides whether
 * this caller may create, read, update or delete a record, and which of its fields it sees or
 * writes. Every entity route and the real-time socket ask it; none filters records itself.
 *
 * - Row rules (`rls.create/read/update/delete`; `write` stands for create, update and delete
 *   where those are not set) are evaluated on the record as the platform addresses it: built-in
 *   fields at the top, the entity's own fields under `data.`.
 * - Field rules (`properties.<field>.rls.read/write`): a field the caller may not read is left out
 *   of everything it receives and of everything its filters, sorts and aggregates see; a field it
 *   may not write keeps its stored value (is dropped on create).
 * - The service role is bound by none of them; a missing rule allows everyone.
 */

export type RowOperation = 'create' | 'read' | 'update' | 'delete';

interface FieldRules {
  read: Map<string, RecordPredicate>;
  write: Map<string, RecordPredicate>;
}

const NO_FIELDS: FieldRules = { read: new Map(), write: new Map() };

function subjectOf(caller: Caller): RuleSubject | null {
  if (caller.kind !== 'user') return null;
  const member = caller.member;
  const role = typeof member?.role === 'string' ? member.role : caller.role;
  return { email: caller.account.email, id: caller.account.id, role, data: member ?? {} };
}

/** A rule the project got wrong is the developer's to fix: a 500 that names it, never an open door. */
function ruleFailure(entity: string, where: string, error: InvalidRule): DomainError {
  return new DomainError(
    'project_failed',
    'invalid_security_rule',
    `Entity ${entity}: the security rule ${where} is not valid: ${error.message}`,
  );
}

function rowRule(rls: RowSecurity | undefined, operation: RowOperation): SecurityRule | undefined {
  if (!rls) return undefined;
  if (operation === 'read') return rls.read;
  return rls[operation] ?? rls.write;
}

export class RecordSecurity {
  private readonly rows = new Map<RowOperation, RecordPredicate>();

  private constructor(
    /** The project defines the entity: its rules, not the emulator's defaults, decide who writes. */
    readonly defined: boolean,
    private readonly appId: string,
    private readonly entity: string,
    private readonly fields: FieldRules,
    private readonly subject: RuleSubject | null,
  ) {}

  /** The rules that apply to `caller` on `entity`: none for the service role or an undefined entity. */
  static of(definitions: EntityDefinitions, appId: string, entity: string, caller: Caller): RecordSecurity {
    const lookup = definitions.lookup(appId, entity);
    // `User` keeps its own rules (routes/user-me.ts); the service role is bound by no rule.
    if (lookup.kind !== 'defined' || entity === 'User' || caller.kind === 'service')
      return new RecordSecurity(lookup.kind === 'defined' && entity !== 'User', appId, entity, NO_FIELDS, null);
    const { definition } = lookup;
    const subject = subjectOf(caller);
    const compile = (rule: SecurityRule | undefined, where: string): RecordPredicate => {
      try {
        return compileRule(rule, subject);
      } catch (error) {
        if (error instanceof InvalidRule) throw ruleFailure(entity, where, error);
        throw error;
      }
    };
    const fields: FieldRules = { read: new Map(), write: new Map() };
    for (const [name, property] of definition.properties) {
      if (property.rls?.read !== undefined) fields.read.set(name, compile(property.rls.read, `${name}.rls.read`));
      if (property.rls?.write !== undefined) fields.write.set(name, compile(property.rls.write, `${name}.rls.write`));
    }
    const security = new RecordSecurity(true, appId, entity, fields, subject);
    for (const operation of ['create', 'read', 'update', 'delete'] as const)
      security.rows.set(operation, compile(rowRule(definition.rls, operation), `rls.${operation}`));
    return security;
  }

  /** True when no rule restricts this caller at all (views are the stored records themselves). */
  get unrestricted(): boolean {
    return (
      this.fields.read.size === 0 &&
      this.fields.write.size === 0 &&
      [...this.rows.values()].every((predicate) => predicate === ALWAYS)
    );
  }

  /** `rls.<operation>` is `false` (or the caller is anonymous and it is a condition): no record at all. */
  deniesEveryRecord(operation: RowOperation): boolean {
    return this.rows.get(operation) === NEVER;
  }

  /**
   * The record as the rules address it: built-in fields at the top, the entity's own under `data`.
   * `data` is the stored record itself (not a copy without the built-ins): lists run this for every
   * record, and a rule naming `data.created_by` is no rule the documentation describes.
   */
  private document(record: Record<string, unknown>): Record<string, unknown> {
    return {
      id: record.id,
      created_date: record.created_date,
      updated_date: record.updated_date,
      created_by: record.created_by,
      created_by_id: record.created_by_id ?? null,
      entity_name: this.entity,
      app_id: this.appId,
      environment: 'prod',
      is_sample: false,
      is_deleted: false,
      deleted_date: null,
      data: record,
    };
  }

  allows(operation: RowOperation, record: Record<string, unknown>): boolean {
    const predicate = this.rows.get(operation) ?? ALWAYS;
    if (predicate === ALWAYS || predicate === NEVER) return predicate === ALWAYS;
    return predicate(this.document(record));
  }

  /** What the caller receives of a record: null when it may not read it, else without hidden fields. */
  view(record: EntityRecord): EntityRecord | null {
    if (!this.allows('read', record)) return null;
    if (this.fields.read.size === 0) return record;
    let document: Record<string, unknown> | null = null;
    let hidden: string[] | null = null;
    for (const [name, mayRead] of this.fields.read) {
      if (!Object.hasOwn(record, name) || mayRead === ALWAYS) continue;
      if (mayRead !== NEVER && mayRead((document ??= this.document(record)))) continue;
      (hidden ??= []).push(name);
    }
    if (!hidden) return record;
    // A fresh object with the kept keys (lists build one per record; `delete` would be slower).
    const view: Record<string, unknown> = {};
    for (const key of Object.keys(record)) if (!hidden.includes(key)) view[key] = record[key];
    return view as EntityRecord;
  }

  /** Every record the caller may read, as it sees them (the input of every list, count and aggregate). */
  views(records: readonly EntityRecord[]): readonly EntityRecord[] {
    if (this.unrestricted) return records;
    const visible: EntityRecord[] = [];
    for (const record of records) {
      const view = this.view(record);
      if (view) visible.push(view);
    }
    return visible;
  }

  /** The fields the caller may not write on this record (as stored, or as it would be created). */
  unwritableFields(record: Record<string, unknown>): string[] {
    if (this.fields.write.size === 0) return [];
    const document = this.document(record);
    return [...this.fields.write].filter(([, mayWrite]) => !mayWrite(document)).map(([name]) => name);
  }

  /** A new record without the fields the caller may not write (judged on the record as it would be). */
  dropUnwritable<T extends Record<string, unknown>>(draft: T): T {
    const kept: Record<string, unknown> = { ...draft };
    for (const name of this.unwritableFields(draft)) delete kept[name];
    return kept as T;
  }

  /** A changed record with every field the caller may not write as it was before the change. */
  keepUnwritable(before: EntityRecord, after: EntityRecord): EntityRecord {
    if (this.fields.write.size === 0) return after;
    const document = this.document(before);
    const kept: EntityRecord = { ...after };
    for (const [name, mayWrite] of this.fields.write) {
      if (mayWrite(document)) continue;
      if (Object.hasOwn(before, name)) kept[name] = before[name];
      else delete kept[name];
    }
    return kept;
  }
}
