/**
 * The platform's entity definitions as the emulator sees them: the contract between the loader of
 * `base44/entities/*.jsonc` (schemas, validation) and row/field-level security. It imports nothing.
 *
 * Format: docs.base44.com, Developers → Entities (schema structure) and Entities → Security.
 */

/**
 * A security rule: `true` (everyone), `false` (no one) or a condition. A condition compares record
 * fields (`created_by`, `created_by_id`, `data.<field>`, ...) with template values
 * (`{{user.email}}`, `{{user.id}}`, `{{user.role}}`, `{{user.data.<field>}}`), or checks the
 * caller with `user_condition`; `$or`, `$and`, `$nor`, `$in`, `$nin`, `$ne`, `$all` combine them.
 */
export type SecurityRule = boolean | { readonly [key: string]: unknown };

/** Row-level security of an entity. A missing permission falls back to the platform's default. */
export interface RowSecurity {
  readonly create?: SecurityRule;
  readonly read?: SecurityRule;
  readonly update?: SecurityRule;
  readonly delete?: SecurityRule;
  /** Shorthand some definitions use for update and delete together. */
  readonly write?: SecurityRule;
}

/** Field-level security of one property. */
export interface FieldSecurity {
  readonly read?: SecurityRule;
  readonly write?: SecurityRule;
}

export type PropertyType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** One property of an entity's schema (JSON-Schema-like; nested for arrays and objects). */
export interface PropertyDefinition {
  readonly type?: PropertyType | readonly PropertyType[];
  readonly description?: string;
  readonly format?: string;
  readonly enum?: readonly unknown[];
  /** String length bounds and a regular expression the whole string must match (strings). */
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** Inclusive bounds (numbers and integers). */
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
  readonly items?: PropertyDefinition;
  readonly properties?: ReadonlyMap<string, PropertyDefinition>;
  readonly required?: readonly string[];
  readonly rls?: FieldSecurity;
}

/** One entity, as `base44/entities/<kebab-case-name>.jsonc` defines it. */
export interface EntityDefinition {
  readonly name: string;
  readonly description?: string;
  /** Keyed by property name; a Map because the names come from files users write. */
  readonly properties: ReadonlyMap<string, PropertyDefinition>;
  readonly required: readonly string[];
  readonly rls?: RowSecurity;
}

/** What an app knows about one entity name. */
export type EntityLookup =
  /** Defined by the project: validated, and secured by its `rls` rules. */
  | { readonly kind: 'defined'; readonly definition: EntityDefinition }
  /** The app has definitions, but not this one: the platform answers 404. */
  | { readonly kind: 'missing' }
  /** The seed marks the app as schemaless (tests): any entity name stores any fields, as before. */
  | { readonly kind: 'schemaless' };

/** The entity definitions of every app the emulator serves; the answer may change when files reload. */
export interface EntityDefinitions {
  lookup(appId: string, entity: string): EntityLookup;
}

/** Every app schemaless: the emulator's behaviour before definitions existed. */
export const SCHEMALESS: EntityDefinitions = { lookup: () => ({ kind: 'schemaless' }) };
