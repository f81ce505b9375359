import { isJsonObject } from '../util/json-object';

/**
 * Which live queries of an entity a written record can affect, without evaluating all of them: the
 * queries whose result holds the record (it may leave or change), and those whose filter the record
 * may match. A filter that requires a top-level field to hold one of a few non-null scalars
 * (`{ group: "a" }`, `{ group: { $eq: "a" } }`, `{ group: { $in: ["a", "b"] } }`) is filed under each
 * of those values: a record holding none of them there cannot match it, because the subscriber's view
 * holds the stored value or, when a field rule hides it, nothing (and neither `$eq` nor `$in` of
 * non-null scalars matches a missing field). Every other filter is checked on every write.
 * Candidates are then checked exactly (live-queries.ts).
 */

/** A field and the values a filter requires it to hold one of (each value as its index key). */
export interface RequiredValues {
  field: string;
  keys: readonly string[];
}

type Scalar = string | number | boolean;

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** Equal scalars give equal keys, different types different ones ("1" is not 1). */
const keyOf = (value: Scalar): string => `${typeof value}:${String(value)}`;

/**
 * The most values one query is filed under. A filter may list up to 1,000 (query/filter.ts), and a
 * caller may hold thousands of windows of one row each, so filing every value would cost more memory
 * than the rows the budget counts; a longer `$in` is checked on every write instead.
 */
export const MAX_FILED_VALUES = 64;

/**
 * The scalars a field's condition requires the field to hold one of, or undefined: a plain scalar,
 * `$eq` of a scalar, or `$in` of at most {@link MAX_FILED_VALUES} scalars only (a `null`, an array or
 * an object among them can match what no scalar key finds). Beside `$eq` or `$in`, other operators
 * only narrow the match further.
 */
function requiredScalars(condition: unknown): Scalar[] | undefined {
  if (isScalar(condition)) return [condition];
  // An object with a key that is no operator is a document to equal, which no scalar key finds.
  if (!isJsonObject(condition) || !Object.keys(condition).every((key) => key.startsWith('$'))) return undefined;
  if (Object.hasOwn(condition, '$eq')) return isScalar(condition.$eq) ? [condition.$eq] : undefined;
  const choices = Object.hasOwn(condition, '$in') ? condition.$in : undefined;
  if (Array.isArray(choices) && choices.length > 0 && choices.length <= MAX_FILED_VALUES && choices.every(isScalar))
    return choices;
  return undefined;
}

/** The first top-level field the filter requires to hold one of some non-null scalars, if any. */
export function requiredValues(filter: unknown): RequiredValues | undefined {
  if (!isJsonObject(filter)) return undefined;
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) continue;
    const scalars = requiredScalars(condition);
    if (scalars) return { field, keys: [...new Set(scalars.map(keyOf))] };
  }
  return undefined;
}

/** The keys under which a stored value can satisfy an equality: itself, or each element of an array. */
function keysOfValue(value: unknown): string[] {
  if (isScalar(value)) return [keyOf(value)];
  if (Array.isArray(value)) return value.filter(isScalar).map(keyOf);
  return [];
}

/** The live queries of one entity, filed for finding the candidates of a write. */
export class CandidateIndex<Query> {
  private readonly unfiled = new Set<Query>();
  /** By field, then by value key: a query filed under several values appears once under each. */
  private readonly byValue = new Map<string, Map<string, Set<Query>>>();
  private readonly holding = new Map<string, Set<Query>>();

  /** Every query filed, however many values it is filed under. */
  private readonly all = new Set<Query>();

  get size(): number {
    return this.all.size;
  }

  add(query: Query, required: RequiredValues | undefined, ids: Iterable<string>): void {
    this.all.add(query);
    if (!required) this.unfiled.add(query);
    else {
      let values = this.byValue.get(required.field);
      if (!values) this.byValue.set(required.field, (values = new Map()));
      for (const key of required.keys) {
        let queries = values.get(key);
        if (!queries) values.set(key, (queries = new Set()));
        queries.add(query);
      }
    }
    this.hold(query, ids, []);
  }

  delete(query: Query, required: RequiredValues | undefined, ids: Iterable<string>): void {
    this.all.delete(query);
    if (!required) this.unfiled.delete(query);
    else {
      const values = this.byValue.get(required.field);
      for (const key of required.keys) {
        const queries = values?.get(key);
        queries?.delete(query);
        if (queries?.size === 0) values?.delete(key);
      }
      if (values?.size === 0) this.byValue.delete(required.field);
    }
    this.hold(query, [], ids);
  }

  /** The query's result now holds `added` and no longer `removed`. */
  hold(query: Query, added: Iterable<string>, removed: Iterable<string>): void {
    for (const id of removed) {
      const queries = this.holding.get(id);
      queries?.delete(query);
      if (queries?.size === 0) this.holding.delete(id);
    }
    for (const id of added) {
      let queries = this.holding.get(id);
      if (!queries) this.holding.set(id, (queries = new Set()));
      queries.add(query);
    }
  }

  /** The queries a write of `record` (as stored; for a delete, as it was) may affect. */
  candidates(record: Record<string, unknown> & { id: string }, deleted: boolean): Set<Query> {
    const found = new Set<Query>(this.holding.get(record.id));
    if (deleted) return found;
    for (const query of this.unfiled) found.add(query);
    for (const [field, values] of this.byValue) {
      for (const key of keysOfValue(Object.hasOwn(record, field) ? record[field] : undefined))
        for (const query of values.get(key) ?? []) found.add(query);
    }
    return found;
  }
}
