/** Shared data shapes of the platform API (docs/SPEC.md section 3, docs/PLATFORM-NOTES.md). */
import type { EntityTypeRegistry } from '@base44/sdk';

import type { EntityFilterQuery, SortField } from './entity-query-types';

export type * from './entity-query-types';

/** Field values of an entity with no declared type. */
export type EntityFields = Record<string, unknown>;

/** Fields the platform adds to every record. */
export interface RecordMeta {
  id: string;
  created_date: string;
  updated_date: string;
  /** Creator e-mail; "service" for the service role; null for anonymous writes. */
  created_by?: string | null;
}

/** A stored record: the entity's own fields plus {@link RecordMeta}. */
export type EntityRecord<T extends object = EntityFields> = T & RecordMeta;

/**
 * Entity name -> field type, e.g. `{ Todo: { title: string; done: boolean } }`. Any object type works,
 * interfaces included (they have no index signature, so this is deliberately not a Record).
 */
export type EntitySchemas = object;

/**
 * The project's entity types as `npx base44 types generate` writes them (base44/.types/types.d.ts
 * fills this interface of `@base44/sdk` from base44/entities/*.jsonc). A type-only import: it is
 * erased from the bundle, so the site never ships the reference client; only its (empty, then
 * augmented) registry interface is read, which keeps the generated file the vendor's own.
 */
export type GeneratedEntitySchemas = EntityTypeRegistry;

/**
 * The schema of a client created without one: the generated entity types by name (once
 * `base44 types generate` has run), and any other name with untyped fields, as the reference client
 * allows. Use `entity<T>(name)` or an explicit schema for names known only at run time.
 */
export interface DefaultEntitySchemas extends GeneratedEntitySchemas {
  [entityName: string]: object;
}

/** The field type of entity `Name` in schema `S` (untyped fields when it is not an object type). */
export type SchemaFields<S extends EntitySchemas, Name extends keyof S> = S[Name] extends object
  ? S[Name]
  : EntityFields;

/** A field name of a record, usable for `fields`. */
export type FieldName<T extends object> = keyof EntityRecord<T> & string;

/** A sort key: a field name, with a leading "-" for descending (or "+" for ascending) order. */
export type SortKey<T extends object> = SortField<EntityRecord<T>>;

/** A Mongo-like filter over a record's fields (see {@link EntityFilterQuery}), sent as the `q` JSON. */
export type EntityFilter<T extends object> = EntityFilterQuery<EntityRecord<T>>;

/** A real-time change of an entity collection. */
export interface EntityChangeEvent<T extends object = EntityFields> {
  type: 'create' | 'update' | 'delete';
  id: string;
  /** The record after the change (for deletes, whatever the server sent). */
  data: EntityRecord<T> | undefined;
  timestamp: string;
}

/**
 * `entities.<Name>.watch()` options (docs/LIVE-QUERIES.md): those of `filter(filter, sort, limit, 0,
 * fields)`, with its defaults (newest first, the platform's default page of 50).
 */
export interface WatchOptions<T extends object = EntityFields> {
  filter?: EntityFilter<T>;
  sort?: SortKey<T>;
  fields?: readonly FieldName<T>[];
  limit?: number;
}

/** What a change did to a watched result; the first snapshot is `added`. */
export type WatchChangeType = 'added' | 'modified' | 'removed';

/** The whole current result of a watch, after a change. */
export interface WatchSnapshot<R extends object = EntityRecord> {
  type: WatchChangeType;
  entities: R[];
  /** When the change happened (ISO 8601; the server's clock when it says). */
  timestamp: string;
}

/** The current user (`User/me`). */
export interface PlatformUser {
  id: string;
  email: string;
  full_name?: string;
  role: 'user' | 'admin' | (string & {});
  [field: string]: unknown;
}

/** `auth/login` response. */
export interface LoginResponse {
  access_token: string;
  user: PlatformUser;
}

/** `public-settings/by-id/{appId}` response. */
export interface PublicSettingsResponse {
  id: string;
  public_settings: Record<string, unknown>;
  [field: string]: unknown;
}

/** One message of an agent conversation. */
export interface AgentMessage {
  id?: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  file_urls?: string[];
  tool_calls?: unknown[];
  [field: string]: unknown;
}

/** An agent conversation. */
export interface AgentConversation {
  id: string;
  agent_name: string;
  messages: AgentMessage[];
  metadata?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Parameters to create a conversation. */
export interface NewConversation {
  agent_name: string;
  metadata?: Record<string, unknown>;
}

/** Called after a subscription is cancelled; calling it twice is harmless. */
export type Unsubscribe = () => void;
