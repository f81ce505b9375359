import JSON5 from 'json5';
import { RE2JS, RE2JSException } from 're2js';

import { isEntityName } from '../core/entity-name';
import { BUILT_IN_FIELDS, USER_ENTITY } from '../core/types';
import type {
  EntityDefinition,
  FieldSecurity,
  PropertyDefinition,
  PropertyType,
  RowSecurity,
  SecurityRule,
} from './definition';
import { isKnownFormat, STRING_FORMATS } from './formats';
import { checkRule, InvalidRule } from './rule';

/**
 * Reads one entity file into an `EntityDefinition`, checking its shape the way the vendor CLI does
 * (JSON5, so comments and trailing commas are fine; `name` made of letters, digits and `_`) and a
 * little stricter where the documentation says so (known field types, no built-in field names).
 * Everything that fails names the file and the place in it.
 */

const PROPERTY_TYPES: ReadonlySet<string> = new Set<PropertyType>([
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
  'null',
]);
/** Names that would reach into an object's prototype chain; the store refuses them as field names. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/** Fields every `User` record has besides the built-in ones (docs: Entities → User schema). */
const USER_ACCOUNT_FIELDS = ['email', 'full_name', 'role'] as const;
const ROW_PERMISSIONS = ['create', 'read', 'update', 'delete', 'write'] as const;
const FIELD_PERMISSIONS = ['read', 'write'] as const;

export class DefinitionError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'DefinitionError';
  }
}

type Fail = (message: string) => never;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own entries of a parsed object, refusing names that would reach into a prototype. */
function entries(value: Record<string, unknown>, where: string, fail: Fail): [string, unknown][] {
  return Object.keys(value).map((key) => {
    if (RESERVED_NAMES.has(key)) fail(`${where} uses the reserved name "${key}"`);
    return [key, value[key]];
  });
}

function optionalString(value: unknown, where: string, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(`${where} must be a string`);
  return value;
}

function optionalNumber(value: unknown, where: string, fail: Fail, integer = false): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && (!Number.isInteger(value) || value < 0)))
    fail(`${where} must be ${integer ? 'a whole number of at least 0' : 'a number'}`);
  return value;
}

function stringList(value: unknown, where: string, fail: Fail): string[] {
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string'))
    fail(`${where} must be a list of field names`);
  return value;
}

/**
 * `true`, `false` or a condition object; `null` and `""` (which the CLI accepts) mean "not set". A
 * condition outside the documented rule syntax is refused here, naming its place, rather than
 * failing each request that reaches it.
 */
function parseRule(value: unknown, where: string, fail: Fail): SecurityRule | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (!isObject(value)) return fail(`${where} must be true, false or a condition object`);
  try {
    checkRule(value);
  } catch (error) {
    if (!(error instanceof InvalidRule)) throw error;
    fail(`${where} is not a valid security rule: ${error.message}`);
  }
  return value;
}

function parseRules<K extends string>(
  value: unknown,
  keys: readonly K[],
  where: string,
  fail: Fail,
): Partial<Record<K, SecurityRule>> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) fail(`${where} must be an object`);
  const rules: Partial<Record<K, SecurityRule>> = {};
  for (const key of keys) {
    const rule = parseRule(value[key], `${where}.${key}`, fail);
    if (rule !== undefined) rules[key] = rule;
  }
  return rules;
}

function parseType(value: unknown, where: string, fail: Fail): PropertyType | PropertyType[] {
  const types = Array.isArray(value) ? (value as unknown[]) : [value];
  if (types.length === 0 || !types.every((type): type is PropertyType => PROPERTY_TYPES.has(type as string))) {
    fail(`${where}.type must be one of ${[...PROPERTY_TYPES].join(', ')} (or a list of them)`);
  }
  return Array.isArray(value) ? types : (types[0] as PropertyType);
}

function parseProperties(
  value: unknown,
  where: string,
  fail: Fail,
  topLevel: boolean,
): Map<string, PropertyDefinition> {
  if (!isObject(value)) fail(`${where} must be an object`);
  const properties = new Map<string, PropertyDefinition>();
  for (const [name, property] of entries(value, where, fail)) {
    if (topLevel && BUILT_IN_FIELDS.has(name))
      fail(`${where}.${name}: "${name}" is a built-in field the platform sets; remove it from the schema`);
    properties.set(name, parseProperty(property, `${where}.${name}`, fail, !topLevel));
  }
  return properties;
}

/**
 * One property; `nested` for the properties of an object field and the items of an array field.
 * Field rules there are refused: the platform's field-level security names an entity's own fields
 * (the vendor's backend accepts such a rule and ignores it, serving the value), and a rule that
 * protects nothing must not look as if it did.
 */
function parseProperty(value: unknown, where: string, fail: Fail, nested: boolean): PropertyDefinition {
  if (!isObject(value)) fail(`${where} must be an object`);
  if (nested && value.rls !== undefined)
    fail(
      `${where}.rls: field rules apply to an entity's own fields only, not inside an object or array field; protect the top-level field instead`,
    );
  const type = parseType(value.type, where, fail);
  if (value.enum !== undefined && (!Array.isArray(value.enum) || value.enum.length === 0))
    fail(`${where}.enum must be a non-empty list`);
  const pattern = optionalString(value.pattern, `${where}.pattern`, fail);
  if (pattern !== undefined) {
    // Values are matched with RE2 (linear time, like `$regex`), so the pattern must compile there.
    try {
      RE2JS.compile(pattern);
    } catch (error) {
      if (!(error instanceof RE2JSException)) throw error;
      fail(`${where}.pattern is not a valid regular expression for RE2 (${error.message})`);
    }
  }
  const format = optionalString(value.format, `${where}.format`, fail);
  if (format !== undefined && !isKnownFormat(format))
    fail(`${where}.format "${format}" is not one the platform supports (${STRING_FORMATS.join(', ')})`);
  const definition: Record<string, unknown> = {
    type,
    description: optionalString(value.description, `${where}.description`, fail),
    format,
    enum: value.enum as unknown[] | undefined,
    default: value.default,
    minLength: optionalNumber(value.minLength, `${where}.minLength`, fail, true),
    maxLength: optionalNumber(value.maxLength, `${where}.maxLength`, fail, true),
    pattern,
    minimum: optionalNumber(value.minimum, `${where}.minimum`, fail),
    maximum: optionalNumber(value.maximum, `${where}.maximum`, fail),
    items: value.items === undefined ? undefined : parseProperty(value.items, `${where}.items`, fail, true),
    properties:
      value.properties === undefined
        ? undefined
        : parseProperties(value.properties, `${where}.properties`, fail, false),
    required: value.required === undefined ? undefined : stringList(value.required, `${where}.required`, fail),
    rls: parseRules(value.rls, FIELD_PERMISSIONS, `${where}.rls`, fail) as FieldSecurity | undefined,
  };
  for (const key of Object.keys(definition)) if (definition[key] === undefined) delete definition[key];
  return definition as PropertyDefinition;
}

/** Parses the text of one entity file; `file` names it in errors. */
export function parseEntityDefinition(text: string, file: string): EntityDefinition {
  const fail: Fail = (message) => {
    throw new DefinitionError(file, message);
  };
  let value: unknown;
  try {
    value = JSON5.parse(text) as unknown;
  } catch (error) {
    return fail(`not valid JSON/JSONC (${(error as Error).message})`);
  }
  if (!isObject(value)) fail('an entity file holds one object');
  if (typeof value.name !== 'string' || !isEntityName(value.name))
    fail('"name" must be the entity name: a letter, then letters, digits and "_" (64 at most)');
  if (value.type !== undefined && value.type !== 'object') fail('"type" must be "object"');
  const properties = parseProperties(value.properties ?? {}, 'properties', fail, true);
  const redefined = value.name === USER_ENTITY ? USER_ACCOUNT_FIELDS.find((name) => properties.has(name)) : undefined;
  if (redefined !== undefined)
    fail(`properties.${redefined}: "${redefined}" is a built-in field of User; its schema holds only your own fields`);
  const required = value.required === undefined ? [] : stringList(value.required, 'required', fail);
  const unknown = required.find((name) => !properties.has(name));
  if (unknown !== undefined) fail(`required names "${unknown}", which is not among the properties`);
  const rls = parseRules(value.rls, ROW_PERMISSIONS, 'rls', fail) as RowSecurity | undefined;
  if (value.name === USER_ENTITY && rls?.create !== undefined)
    fail(
      'rls.create: users join by registration, login or invitation, never through the entity API, so a create rule on User would bind nothing; remove it',
    );
  const description = optionalString(value.description, 'description', fail);
  return {
    name: value.name,
    properties,
    required,
    ...(description === undefined ? {} : { description }),
    ...(rls === undefined ? {} : { rls }),
  };
}
