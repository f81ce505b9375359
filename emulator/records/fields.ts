import { isEntityName } from '../core/entity-name';
import { invalidInput } from '../core/errors';
import { checkStoredJson, isReservedName } from '../core/json-guard';
import { BUILT_IN_FIELDS, type EntityRecord } from '../core/types';
import { newId } from '../store/store';

/** Validation and construction of entity records; nothing here touches the store. */

export const MAX_BATCH = 10_000;

export function requireEntityName(name: string): string {
  if (!isEntityName(name)) {
    throw invalidInput(
      `"${name.slice(0, 80)}" is not a valid entity name (letters, digits and "_", starting with a letter)`,
      'invalid_entity',
    );
  }
  return name;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * The user-settable fields of a record. System fields are the emulator's to set and are dropped, and
 * so is every top-level field `keeps` refuses (a defined entity keeps only its schema's fields), before
 * anything else is looked at: a field named `toString`, `constructor` or `__proto__` that the schema
 * lacks is dropped like any other unknown field. Of the fields kept, keys that would break filters
 * (`$op`, dotted) or objects (`__proto__`) are refused, reserved names at every depth, and so is
 * anything too deep or too large to store (400/413, nothing stored).
 */
export function userFields(
  value: unknown,
  where = 'The record',
  keeps: (name: string) => boolean = () => true,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(`${where} must be a JSON object, received ${describe(value)}`, 'invalid_record');
  }
  const fields: Record<string, unknown> = {};
  for (const [key, fieldValue] of Object.entries(value)) {
    if (BUILT_IN_FIELDS.has(key) || !keeps(key)) continue;
    if (key === '' || key.startsWith('$') || key.includes('.') || isReservedName(key)) {
      throw invalidInput(
        `${where} has the field name "${key.slice(0, 80)}", which is not allowed`,
        'invalid_field_name',
      );
    }
    fields[key] = fieldValue;
  }
  checkStoredJson(fields, where);
  return fields;
}

export function buildRecord(
  fields: Record<string, unknown>,
  createdBy: string | null,
  nowIso: string,
  createdById: string | null = null,
): EntityRecord {
  return {
    ...fields,
    id: newId(),
    created_date: nowIso,
    updated_date: nowIso,
    created_by: createdBy,
    created_by_id: createdById,
  };
}

export function requireRecordList(
  value: unknown,
  where: string,
  keeps?: (name: string) => boolean,
): Record<string, unknown>[] {
  if (!Array.isArray(value))
    throw invalidInput(`${where} must be a JSON array of records, received ${describe(value)}`, 'invalid_body');
  if (value.length > MAX_BATCH)
    throw invalidInput(`${where} may hold at most ${MAX_BATCH} records`, 'too_many_records');
  return value.map((item, index) => userFields(item, `Record ${index}`, keeps));
}

/** `fields` without the names given (a copy only when there is something to drop). */
export function omitFields(fields: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  if (names.length === 0) return fields;
  const kept = { ...fields };
  for (const name of names) delete kept[name];
  return kept;
}
