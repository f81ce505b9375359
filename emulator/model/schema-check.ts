import Ajv, { type ErrorObject, type SchemaObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';

import type { EntityDefinition, PropertyDefinition } from '../entities/definition';
import { hasFormat, STRING_FORMATS } from '../entities/formats';

/**
 * An entity's property schemas checked by ajv (a maintained JSON Schema validator), with the
 * platform's wording of the first problem found. Each definition is compiled once (definitions are
 * immutable; a reload makes new ones). `pattern` runs on RE2 (linear time, as `$regex`), formats
 * are the documented ones (entities/formats.ts). The platform's order of checks is kept by the
 * schema's shape: the type first, then enum, string, number, item and nested-field rules; `null`
 * in a field that admits it skips the rest, and a required field that is absent or null is
 * "Field required" (JSON Schema's `required` only asks for presence, so that rule is ours:
 * `platformRequired`).
 */

export interface Problem {
  /** `title`, `meta.level`, `tags[1]`. */
  path: string;
  /** `Input should be a valid integer`, `Field required`, ... */
  text: string;
}

const REQUIRED = 'platformRequired';

/** ajv's `code.regExp` engine: RE2 (no backtracking, so a crafted value cannot stall a write). */
function re2(pattern: string): { test(value: string): boolean } {
  const compiled = RE2JS.compile(pattern);
  return { test: (value) => compiled.matcher(value).find() };
}
re2.code = 're2js';

function newAjv(): Ajv {
  const ajv = new Ajv({
    strict: true,
    // Rules are nested under the type on purpose (see propertySchema); types are never mixed up.
    strictTypes: false,
    allowUnionTypes: true,
    // Only own fields count: a field named like an Object.prototype member is absent when not sent.
    ownProperties: true,
    code: { regExp: re2 },
  });
  for (const format of STRING_FORMATS)
    ajv.addFormat(format, { type: 'string', validate: (value: string) => hasFormat(format, value) });
  const platformRequired: SchemaValidateFunction = (names: string[], value: Record<string, unknown>) => {
    const missing = names.find((name) => !Object.hasOwn(value, name) || value[name] === null);
    platformRequired.errors =
      missing === undefined ? [] : [{ keyword: REQUIRED, params: { missingProperty: missing } }];
    return missing === undefined;
  };
  ajv.addKeyword({
    keyword: REQUIRED,
    type: 'object',
    schemaType: 'array',
    before: 'properties',
    errors: true,
    validate: platformRequired,
  });
  return ajv;
}

const ajv = newAjv();

function rulesOf(property: PropertyDefinition): SchemaObject {
  const rules: SchemaObject = {};
  for (const key of ['enum', 'format', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum'] as const) {
    if (property[key] !== undefined) rules[key] = property[key];
  }
  if (property.items) rules.items = propertySchema(property.items);
  if (property.properties) rules.properties = propertiesSchema(property.properties);
  if (property.required?.length) rules[REQUIRED] = property.required;
  return rules;
}

/**
 * `{ type, allOf: [rules] }`: ajv checks a type given with no rules beside it before anything else,
 * while rules beside it may run first (enum before type). A null the type admits skips the rules.
 */
function propertySchema(property: PropertyDefinition): SchemaObject {
  const rules = rulesOf(property);
  if (property.type === undefined) return rules;
  const schema: SchemaObject = { type: property.type };
  if (Object.keys(rules).length === 0) return schema;
  const nullable = property.type === 'null' || (Array.isArray(property.type) && property.type.includes('null'));
  schema.allOf = [nullable ? { if: { type: 'null' }, else: rules } : rules];
  return schema;
}

function propertiesSchema(properties: ReadonlyMap<string, PropertyDefinition>): SchemaObject {
  return Object.fromEntries([...properties].map(([name, property]) => [name, propertySchema(property)]));
}

const compiled = new WeakMap<EntityDefinition, ValidateFunction>();

/** The definition's check of the fields given (top-level `required` is the caller's: updates send a part). */
function validatorOf(definition: EntityDefinition): ValidateFunction {
  let validate = compiled.get(definition);
  if (!validate) {
    const schema = { properties: propertiesSchema(definition.properties) };
    validate = ajv.compile(schema);
    // The function keeps working; ajv's own cache would otherwise hold every definition ever loaded.
    ajv.removeSchema(schema);
    compiled.set(definition, validate);
  }
  return validate;
}

/** `/tags/1` on the checked value as the platform names it: `tags[1]` (an array index) or `a.b`. */
function pathOf(pointer: string, value: unknown): string {
  let path = '';
  let current = value;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) path += `[${segment}]`;
    else path += path === '' ? segment : `.${segment}`;
    current = (current as Record<string, unknown> | undefined)?.[segment];
  }
  return path;
}

function describeEnum(values: readonly unknown[]): string {
  const shown = values.map((value) => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value)));
  return shown.length === 1 ? (shown[0] as string) : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1) as string}`;
}

function typeText(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.length === 1 && types[0] === 'null'
    ? 'Input should be null'
    : `Input should be a valid ${types.join(' or ')}`;
}

/** The platform's words for one ajv error. */
function textOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case REQUIRED:
      return 'Field required';
    case 'type':
      return typeText(params.type);
    case 'enum':
      return `Input should be ${describeEnum(params.allowedValues as unknown[])}`;
    case 'minLength':
      return `String should have at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `String should have at most ${String(params.limit)} characters`;
    case 'pattern':
      return `String should match pattern '${String(params.pattern)}'`;
    case 'format':
      return `Input should be a valid ${String(params.format)}`;
    case 'minimum':
      return `Input should be greater than or equal to ${String(params.limit)}`;
    case 'maximum':
      return `Input should be less than or equal to ${String(params.limit)}`;
    default:
      return error.message ?? `Input is not valid (${error.keyword})`;
  }
}

/** The first problem of `fields` against the definition's properties (only the fields present), or null. */
export function firstProblem(definition: EntityDefinition, fields: Record<string, unknown>): Problem | null {
  const validate = validatorOf(definition);
  if (validate(fields)) return null;
  const error = validate.errors?.[0];
  if (!error) return null;
  const path = pathOf(error.instancePath, fields);
  if (error.keyword === REQUIRED) {
    const name = String((error.params as { missingProperty: unknown }).missingProperty);
    return { path: path === '' ? name : `${path}.${name}`, text: textOf(error) };
  }
  return { path, text: textOf(error) };
}
