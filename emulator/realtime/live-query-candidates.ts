import { isJsonObject } from '../util/json-object';

/**
 * Which live queries of an entity a written record can affect, without evaluating all of them: the
 * queries whose result holds the record (it may leave or change), and those whose filter the record
 * may match. A filter that requires a top-level field to equal one non-null scalar (`{ group: "a" }`,
 * `{ group: { $eq: "a" } }`) is filed under that value: a record holding another value there cannot
 * match it, because the subscriber's view holds that value or, when a field rule hides it, nothing.
 * Every other filter is checked on every write. Candidates are then checked exactly (live-queries.ts).
 */

/** A field and value a filter requires (the value as its index key). */
export interface RequiredEquality {
  field: string;
  key: string;
}

type Scalar = string | number | boolean;

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** Equal scalars give equal keys, different types different ones ("1" is not 1). */
const keyOf = (value: Scalar): string => `${typeof value}:${String(value)}`;

/** The first top-level equality with a non-null scalar the filter requires, if any. */
export function requiredEquality(filter: unknown): RequiredEquality | undefined {
  if (!isJsonObject(filter)) return undefined;
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) continue;
    const operand =
      isJsonObject(condition) && Object.keys(condition).length === 1 && Object.hasOwn(condition, '$eq')
        ? condition.$eq
        : condition;
    if (isScalar(operand)) return { field, key: keyOf(operand) };
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
  private readonly byEquality = new Map<string, Map<string, Set<Query>>>();
  private readonly holding = new Map<string, Set<Query>>();

  get size(): number {
    let total = this.unfiled.size;
    for (const values of this.byEquality.values()) for (const queries of values.values()) total += queries.size;
    return total;
  }

  add(query: Query, equality: RequiredEquality | undefined, ids: Iterable<string>): void {
    if (!equality) this.unfiled.add(query);
    else {
      let values = this.byEquality.get(equality.field);
      if (!values) this.byEquality.set(equality.field, (values = new Map()));
      let queries = values.get(equality.key);
      if (!queries) values.set(equality.key, (queries = new Set()));
      queries.add(query);
    }
    this.hold(query, ids, []);
  }

  delete(query: Query, equality: RequiredEquality | undefined, ids: Iterable<string>): void {
    if (!equality) this.unfiled.delete(query);
    else {
      const values = this.byEquality.get(equality.field);
      const queries = values?.get(equality.key);
      queries?.delete(query);
      if (queries?.size === 0) values?.delete(equality.key);
      if (values?.size === 0) this.byEquality.delete(equality.field);
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
    for (const [field, values] of this.byEquality) {
      for (const key of keysOfValue(Object.hasOwn(record, field) ? record[field] : undefined))
        for (const query of values.get(key) ?? []) found.add(query);
    }
    return found;
  }
}
