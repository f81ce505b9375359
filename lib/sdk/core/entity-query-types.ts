/**
 * Types of entity queries and the newer entity calls (cursor pages, counts, aggregation, upserts),
 * with the reference client's names and shapes (`@base44/sdk` entities.types).
 */

/** A value a field may be compared with: the field's own type (never undefined) or null. */
export type FilterComparable<V> = Exclude<V, undefined> | null;

type ArrayElement<V> = V extends readonly (infer E)[] ? E : never;

type StringOperators<V> = [Extract<Exclude<V, undefined | null>, string>] extends [never]
  ? unknown
  : { $regex?: string };

type ArrayOperators<V> = [ArrayElement<Exclude<V, undefined | null>>] extends [never]
  ? unknown
  : { $all?: ArrayElement<Exclude<V, undefined | null>>[]; $size?: number };

type CommonOperators<V> = {
  $eq?: FilterComparable<V>;
  $ne?: FilterComparable<V>;
  $gt?: FilterComparable<V>;
  $gte?: FilterComparable<V>;
  $lt?: FilterComparable<V>;
  $lte?: FilterComparable<V>;
  $in?: FilterComparable<V>[];
  $nin?: FilterComparable<V>[];
  $exists?: boolean;
} & StringOperators<V> &
  ArrayOperators<V>;

/** Operators on one field; `$regex` only for string fields, `$all`/`$size` only for arrays. */
export type FilterOperators<V> = CommonOperators<V> & { $not?: CommonOperators<V> };

/** What a field may be matched with: a value, a list of values, or operators. */
export type FilterValue<V> = FilterComparable<V> | FilterComparable<V>[] | FilterOperators<V>;

/**
 * A Mongo-like filter over the fields of `T` (`{ status: 'open', priority: { $gt: 2 } }`), sent as
 * the `q` JSON parameter. As precise as the reference's `EntityFilterQuery<T>`: unknown fields and
 * wrongly typed values are compile errors for typed entities.
 */
export type EntityFilterQuery<T> = { [K in keyof T]?: FilterValue<T[K]> } & {
  $and?: EntityFilterQuery<T>[];
  $or?: EntityFilterQuery<T>[];
  $nor?: EntityFilterQuery<T>[];
};

/** A sort key of the reference's form: a field, `+field` or `-field`. */
export type SortField<T> = (keyof T & string) | `+${keyof T & string}` | `-${keyof T & string}`;

/** `list(options)` / `filter(query, options)`: one cursor page (`GET {entity}/v2/list`). */
export interface EntityListOptions<T, K extends keyof T = keyof T> {
  sort?: SortField<T>;
  /** Page size; default 100. */
  limit?: number;
  /** The `next_cursor` of the previous page; omitted for the first page. */
  cursor?: string | null;
  fields?: K[];
}

/** `list({ distinct })`: one cursor page of the distinct values of a field. */
export interface EntityDistinctOptions<T, K extends keyof T = keyof T> {
  distinct: K;
  limit?: number;
  cursor?: string | null;
}

/** One cursor page. */
export interface EntityPage<Item> {
  items: Item[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface DeleteResult {
  success: boolean;
}

export interface DeleteManyResult {
  success: boolean;
  deleted: number;
}

export interface UpdateManyResult {
  success: boolean;
  updated: number;
  has_more: boolean;
}

type FieldList<T> = (keyof T & string) | (keyof T & string)[];

/** A server-side group-by (`POST {entity}/aggregate`). */
export interface EntityAggregateSpec<T> {
  query?: EntityFilterQuery<T>;
  groupBy?: FieldList<T>;
  dateBucket?: { field: keyof T & string; unit: 'day' | 'week' | 'month' | 'year' };
  count?: boolean;
  sum?: FieldList<T>;
  avg?: FieldList<T>;
  min?: FieldList<T>;
  max?: FieldList<T>;
  countDistinct?: keyof T & string;
  /** A filter over the result rows (by their output names, e.g. `{ count: { $gt: 1 } }`). */
  having?: Record<string, unknown>;
  sort?: string;
  limit?: number;
}

export interface EntityAggregateResult {
  rows: Record<string, unknown>[];
  truncated: boolean;
}

export interface EntityUpsertOptions<T> {
  /** The natural key: one field or several. */
  key: FieldList<T>;
}

export interface EntityUpsertResult<R> {
  created: number;
  updated: number;
  records: R[];
}

export interface ImportResult<R> {
  status: 'success' | 'error';
  details: string | null;
  output: R[] | null;
}

/** An update operator document for `updateMany`, e.g. `{ $set: { done: true }, $inc: { views: 1 } }`. */
export type EntityUpdateOperators = Record<`$${string}`, Record<string, unknown>>;
