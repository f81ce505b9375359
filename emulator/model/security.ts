import type { Caller } from '../auth/caller';
import type { EntityRecord } from '../core/types';
import type { EntityDefinitions, RowSecurity, SecurityRule } from '../entities/definition';
import { ALWAYS, compileRule, NEVER, type RuleSubject } from '../entities/rule';
import type { RecordPredicate } from '../query/engine';

/**
 * Row- and field-level security of one entity for one caller: the one place that decides whether
 * this caller may create, read, update or delete a record, and which of its fields it sees or
 * writes. The records layer (emulator/records/) and the real-time socket ask it; nothing else
 * filters records.
 *
 * - Row rules (`rls.create/read/update/delete`; `write` stands for create, update and delete
 *   where those are not set) are evaluated on the record as the platform addresses it: built-in
 *   fields at the top, the entity's own fields under `data.`. Each operation is judged by its own
 *   rule: a record the caller may update but not read is still updated.
 * - Field rules (`properties.<field>.rls.read/write`, on an entity's own fields; the loader refuses
 *   them deeper down): a field the caller may not read is left out of everything it receives and of
 *   everything its filters, sorts and aggregates see; a field it may not write keeps its stored
 *   value (is dropped on create).
 * - The service role is bound by none of them; a missing rule allows everyone. Rules were checked
 *   when the entity files loaded (entities/parse.ts), so compiling them here cannot fail.
 */

export type RowOperation = 'create' | 'read' | 'update' | 'delete';

/** What the records layer asks of an entity's rules, whichever entity it is (`User` has its own). */
export interface RecordRules {
  /** Rules decide who writes (the project defines the entity, or it is `User`); else a signed-in caller. */
  readonly defined: boolean;
  allows(operation: RowOperation, record: Record<string, unknown>): boolean;
  /** The rule of `operation` is `false`: no record at all (anonymous callers of a condition are not this). */
  deniesEveryRecord(operation: RowOperation): boolean;
  /** What the caller receives of a record: null when it may not read it, else without hidden fields. */
  view(record: EntityRecord): EntityRecord | null;
  /** Every record the caller may read, as it sees them (the input of every list, count and aggregate). */
  views(records: readonly EntityRecord[]): readonly EntityRecord[];
  /** The record without the fields the caller may not read, whether or not it may read the record. */
  fieldView(record: EntityRecord): EntityRecord;
  /** A field rule may leave `field` out of this caller's view of some record (the query planner asks). */
  mayHideField(field: string): boolean;
  /** This caller reads every record, whole: its views are the stored records themselves. */
  readonly seesEverything: boolean;
  /** The record's own fields this caller may both read and write (an update operator may name them). */
  mayReadAndWrite(field: string, record: Record<string, unknown>): boolean;
  /** The fields the caller may not write on this record (as stored, or as it would be created). */
  unwritableFields(record: Record<string, unknown>): string[];
  /** A changed record with every field the caller may not write as it was before the change. */
  keepUnwritable(before: EntityRecord, after: EntityRecord): EntityRecord;
}

interface FieldRules {
  read: Map<string, RecordPredicate>;
  write: Map<string, RecordPredicate>;
}

const NO_FIELDS: FieldRules = { read: new Map(), write: new Map() };

/** The caller as rules see it: null for visitors and the service role (which no rule binds). */
function subjectOf(caller: Caller): RuleSubject | null {
  if (caller.kind !== 'user') return null;
  const member = caller.member;
  const role = typeof member?.role === 'string' ? member.role : caller.role;
  return { email: caller.account.email, id: caller.account.id, role, data: member ?? {} };
}

function rowRule(rls: RowSecurity | undefined, operation: RowOperation): SecurityRule | undefined {
  if (!rls) return undefined;
  if (operation === 'read') return rls.read;
  return rls[operation] ?? rls.write;
}

export class RecordSecurity implements RecordRules {
  private readonly rows = new Map<RowOperation, RecordPredicate>();

  private constructor(
    readonly defined: boolean,
    private readonly appId: string,
    private readonly entity: string,
    private readonly fields: FieldRules,
  ) {}

  /** The rules of `entity` that apply to `caller`: none for the service role or an undefined entity. */
  static of(definitions: EntityDefinitions, appId: string, entity: string, caller: Caller): RecordSecurity {
    const lookup = definitions.lookup(appId, entity);
    if (lookup.kind !== 'defined' || caller.kind === 'service')
      return new RecordSecurity(lookup.kind === 'defined', appId, entity, NO_FIELDS);
    const { definition } = lookup;
    const subject = subjectOf(caller);
    const fields: FieldRules = { read: new Map(), write: new Map() };
    for (const [name, property] of definition.properties) {
      if (property.rls?.read !== undefined) fields.read.set(name, compileRule(property.rls.read, subject));
      if (property.rls?.write !== undefined) fields.write.set(name, compileRule(property.rls.write, subject));
    }
    const security = new RecordSecurity(true, appId, entity, fields);
    for (const operation of ['create', 'read', 'update', 'delete'] as const)
      security.rows.set(operation, compileRule(rowRule(definition.rls, operation), subject));
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

  deniesEveryRecord(operation: RowOperation): boolean {
    return this.rows.get(operation) === NEVER;
  }

  mayHideField(field: string): boolean {
    const mayRead = this.fields.read.get(field);
    return mayRead !== undefined && mayRead !== ALWAYS;
  }

  get seesEverything(): boolean {
    const read = this.rows.get('read');
    return (read === undefined || read === ALWAYS) && [...this.fields.read.values()].every((rule) => rule === ALWAYS);
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

  private passes(predicate: RecordPredicate | undefined, record: Record<string, unknown>): boolean {
    if (predicate === undefined || predicate === ALWAYS) return true;
    return predicate(this.document(record));
  }

  allows(operation: RowOperation, record: Record<string, unknown>): boolean {
    return this.passes(this.rows.get(operation), record);
  }

  view(record: EntityRecord): EntityRecord | null {
    return this.allows('read', record) ? this.fieldView(record) : null;
  }

  fieldView(record: EntityRecord): EntityRecord {
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

  views(records: readonly EntityRecord[]): readonly EntityRecord[] {
    if (this.unrestricted) return records;
    const visible: EntityRecord[] = [];
    for (const record of records) {
      const view = this.view(record);
      if (view) visible.push(view);
    }
    return visible;
  }

  mayReadAndWrite(field: string, record: Record<string, unknown>): boolean {
    return this.passes(this.fields.read.get(field), record) && this.passes(this.fields.write.get(field), record);
  }

  unwritableFields(record: Record<string, unknown>): string[] {
    if (this.fields.write.size === 0) return [];
    const document = this.document(record);
    return [...this.fields.write].filter(([, mayWrite]) => !mayWrite(document)).map(([name]) => name);
  }

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
