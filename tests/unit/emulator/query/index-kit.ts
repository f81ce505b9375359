/**
 * What the index tests share: an entity defined the way apps write it (schema with row and field
 * rules, parsed by the emulator's own loader), its records in a real store Collection, the real
 * rules of several callers, and the reference answer: the scan as the emulator ran it before
 * indexes (views of every record, the exact filter, sortRecords).
 */
import type { Caller } from '@/emulator/auth/caller';
import type { Account, EntityRecord } from '@/emulator/core/types';
import { RecordSecurity, type RecordRules } from '@/emulator/model/security';
import type { RecordPredicate } from '@/emulator/query/engine';
import { CollectionIndexes } from '@/emulator/query/indexes/collection-indexes';
import { readViews, type ReadSource } from '@/emulator/query/indexes/execute';
import type { ReadRequest } from '@/emulator/query/indexes/planner';
import { sortRecords } from '@/emulator/query/sort';
import { BUILT_IN_INDEXED_FIELDS } from '@/emulator/records/reads';
import { Collection } from '@/emulator/store/collection';

import { definitionsOf } from '../emulator-kit';

export const APP = 'app';
export const ENTITY = 'Item';
export const OWNER = 'ana@example.com';

/** The records here are written directly, so the schema's types only need to parse. */
const ANY = ['string', 'number', 'boolean', 'array', 'object', 'null'];

/** Everyone reads records of team 1 or their own; `secret` shows only to the record's owner. */
export const ITEM_SCHEMA = {
  name: ENTITY,
  type: 'object',
  properties: {
    a: { type: ANY },
    b: { type: ANY },
    tags: { type: 'array' },
    n: { type: 'object' },
    owner: { type: 'string' },
    secret: { type: ANY, rls: { read: { 'data.owner': '{{user.email}}' } } },
  },
  rls: { read: { $or: [{ created_by: '{{user.email}}' }, { 'data.b': 1 }] } },
};

export function userCaller(email: string): Caller {
  const account = { id: `id-${email}`, email } as Account;
  return { kind: 'user', account, member: null, role: 'user', sessionId: null };
}

export const SERVICE: Caller = { kind: 'service' };

export function rulesFor(caller: Caller, schema: object = ITEM_SCHEMA): RecordRules {
  return RecordSecurity.of(definitionsOf(schema), APP, ENTITY, caller);
}

/** The fields the records layer indexes for a schema (built-ins, then the declared ones). */
export function indexedFieldsOf(schema: { properties: object }): string[] {
  return [...BUILT_IN_INDEXED_FIELDS, ...Object.keys(schema.properties)];
}

export function collectionOf(records: readonly EntityRecord[]): Collection<EntityRecord> {
  const collection = new Collection<EntityRecord>(() => undefined);
  for (const record of records) collection.put(record.id, record);
  return collection;
}

export function sourceOf(collection: Collection<EntityRecord>, fields: readonly string[]): ReadSource {
  return { records: collection.all(), indexes: CollectionIndexes.of(collection, fields) };
}

/** The reference: what the emulator answered before indexes, from every record. */
export function scanned(records: readonly EntityRecord[], rules: RecordRules, request: ReadRequest): EntityRecord[] {
  return scannedViews(rules.views(records), request);
}

/** The same from the caller's views, already taken. */
export function scannedViews(views: readonly EntityRecord[], request: ReadRequest): EntityRecord[] {
  const matches = views.filter((view) => request.filter(view));
  if (request.sort) return sortRecords(matches, request.sort, request.take);
  return Number.isFinite(request.take) ? matches.slice(0, request.take) : matches;
}

export function planned(source: ReadSource, rules: RecordRules, request: ReadRequest, start?: unknown) {
  return readViews(source, rules, request, start);
}

export const everything: RecordPredicate = () => true;

let sequence = 0;
/** A record with the built-in fields set; `created` picks one of a few dates so that sorts tie. */
export function record(fields: Record<string, unknown>, created = 0): EntityRecord {
  sequence += 1;
  const date = new Date(Date.UTC(2026, 0, 1, 0, 0, created)).toISOString();
  return {
    id: `r${String(sequence).padStart(5, '0')}`,
    created_date: date,
    updated_date: date,
    created_by: OWNER,
    ...fields,
  } as EntityRecord;
}
