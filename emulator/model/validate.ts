import { isDeepStrictEqual } from 'node:util';

import { invalidInput, notFound, schemaViolation } from '../core/errors';
import { BUILT_IN_FIELDS, type EntityRecord } from '../core/types';
import type { EntityDefinition, EntityLookup, PropertyDefinition, PropertyType } from '../entities/definition';
import { firstProblem } from './schema-check';

/**
 * Entity schemas as the platform applies them, in one layer between the routes and the store: every
 * write path (create, bulk create, import, update, bulk update, updateMany, upsert) passes its
 * fields through an `EntityModel` before anything is stored. A defined entity drops fields its
 * schema does not name, fills defaults on create and refuses values that break the schema with a
 * schema violation (core/errors.ts; on the wire 422 and the platform's ValidationError body
 * `{ error_type, message: "Error in field title: Field required", ... }`). The checks run on ajv
 * (schema-check.ts); messages follow the vendor's local backend (`base44 dev`); the checks it skips
 * but the documentation names (enum, formats, lengths, pattern, bounds, nested required) use the
 * same wording style. A schemaless entity (test apps,
 * the built-in User) passes fields through unchanged.
 */

export interface EntityModel {
  /** The definition behind this model, or null when the entity is schemaless. */
  readonly definition: EntityDefinition | null;
  /**
   * Whether a top-level field of a write is kept (a schema's field, or any field when schemaless):
   * the records layer drops the others before it looks at their names or values.
   */
  keepsField(name: string): boolean;
  /** The fields of a new record: unknown fields dropped, defaults filled, everything checked. */
  forCreate(fields: Record<string, unknown>): Record<string, unknown>;
  /** The fields an update sets: unknown fields dropped, each given field checked. */
  forUpdate(fields: Record<string, unknown>): Record<string, unknown>;
  /**
   * A record after update operators (updateMany): fields the operators added outside the schema are
   * dropped, changed fields checked, and a required field may not be removed.
   */
  afterOperators(before: EntityRecord, after: Record<string, unknown>): Record<string, unknown>;
  /**
   * Cells of a CSV row typed by the schema: the CSV reader turns "12" and "true" into a number and
   * a boolean, which a string field gets back as text; array and object fields read JSON text.
   */
  fromCsv(fields: Record<string, unknown>): Record<string, unknown>;
  /**
   * Field paths a call matches records by (upsert keys) must start at a field the schema names:
   * a key outside it would be dropped from every stored record and never match again (400).
   */
  requireKnownPaths(paths: readonly string[], what: string): void;
}

const PASS_THROUGH: EntityModel = {
  definition: null,
  keepsField: () => true,
  forCreate: (fields) => fields,
  forUpdate: (fields) => fields,
  afterOperators: (_before, after) => after,
  fromCsv: (fields) => fields,
  requireKnownPaths: () => undefined,
};

/** The model for an entity: 404 (as the platform answers) when the app does not define it. */
export function entityModel(lookup: EntityLookup, entity: string): EntityModel {
  if (lookup.kind === 'missing') throw notFound(`Entity "${entity}" not found`, 'entity_not_found');
  return lookup.kind === 'schemaless' ? PASS_THROUGH : new DefinedModel(lookup.definition);
}

function typesOf(property: PropertyDefinition): readonly PropertyType[] {
  const { type } = property;
  if (type === undefined) return [];
  return typeof type === 'string' ? [type] : type;
}

function hasType(value: unknown, type: PropertyType): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

function fail(path: string, text: string): never {
  throw schemaViolation(`Error in field ${path}: ${text}`);
}

class DefinedModel implements EntityModel {
  constructor(readonly definition: EntityDefinition) {}

  keepsField(name: string): boolean {
    return this.definition.properties.has(name) || BUILT_IN_FIELDS.has(name);
  }

  /** Own fields the schema names (and the platform's own fields), in the order given. */
  private known(fields: Record<string, unknown>): Record<string, unknown> {
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields)) {
      if (this.keepsField(name)) kept[name] = value;
    }
    return kept;
  }

  /** Checks the named fields that are present (ajv, schema-check.ts); the first problem refuses the write. */
  private check(fields: Record<string, unknown>, names: Iterable<string>): void {
    const present: Record<string, unknown> = {};
    for (const name of names) {
      if (this.definition.properties.has(name) && Object.hasOwn(fields, name)) present[name] = fields[name];
    }
    const problem = firstProblem(this.definition, present);
    if (problem) fail(problem.path, problem.text);
  }

  private requireAll(fields: Record<string, unknown>, names: Iterable<string>): void {
    for (const name of names) {
      if (fields[name] === undefined || fields[name] === null) fail(name, 'Field required');
    }
  }

  forCreate(fields: Record<string, unknown>): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const [name, property] of this.definition.properties) {
      if (property.default !== undefined) record[name] = structuredClone(property.default);
    }
    Object.assign(record, this.known(fields));
    this.requireAll(record, this.definition.required);
    this.check(record, this.definition.properties.keys());
    return record;
  }

  forUpdate(fields: Record<string, unknown>): Record<string, unknown> {
    const known = this.known(fields);
    this.check(known, Object.keys(known));
    return known;
  }

  afterOperators(before: EntityRecord, after: Record<string, unknown>): Record<string, unknown> {
    const changed = Object.keys(after).filter((name) => !isDeepStrictEqual(before[name], after[name]));
    const record: Record<string, unknown> = { ...after };
    for (const name of changed) {
      // A field the schema does not name cannot be added; one stored before the schema changed stays.
      if (!this.definition.properties.has(name) && !BUILT_IN_FIELDS.has(name)) delete record[name];
    }
    const removed = Object.keys(before).filter((name) => !Object.hasOwn(after, name));
    this.requireAll(
      record,
      this.definition.required.filter((name) => removed.includes(name) || changed.includes(name)),
    );
    this.check(record, changed);
    return record;
  }

  requireKnownPaths(paths: readonly string[], what: string): void {
    for (const path of paths) {
      const field = path.split('.')[0] as string;
      if (!this.definition.properties.has(field) && !BUILT_IN_FIELDS.has(field)) {
        throw invalidInput(`${what} "${path}" is not a field of ${this.definition.name}`, 'invalid_key');
      }
    }
  }

  fromCsv(fields: Record<string, unknown>): Record<string, unknown> {
    const typed: Record<string, unknown> = { ...fields };
    for (const [name, value] of Object.entries(fields)) {
      const types = typesOf(this.definition.properties.get(name) ?? {});
      if (
        (typeof value === 'number' || typeof value === 'boolean') &&
        types.includes('string') &&
        !types.some((type) => hasType(value, type))
      ) {
        typed[name] = String(value);
      } else if (
        typeof value === 'string' &&
        (types.includes('array') || types.includes('object')) &&
        !types.includes('string')
      ) {
        try {
          typed[name] = JSON.parse(value) as unknown;
        } catch {
          // Left as text: the type check names the field.
        }
      }
    }
    return typed;
  }
}
