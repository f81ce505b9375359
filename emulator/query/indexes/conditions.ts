import type { Criteria } from '../filter';
import { compareSortKeys } from '../sort';
import type { FieldIndex, IndexKey, Slot } from './field-index';

/**
 * The parts of a filter an index can answer: conditions every match must meet (top-level fields,
 * directly or inside `$and`) that compare the field with a scalar by equality, `$in` or a range.
 * Each of them can only hold where the field holds a value, so the records an index files under
 * such values are a superset of the matches, whatever else the filter says (`$or`, `$ne`, ...),
 * whatever a field rule hides (a view only leaves fields out) and whoever may read the records:
 * the exact filter still runs on each candidate's view. Conditions that can match a missing or null
 * field (`null`, `$exists: false`, `$ne`, `$nin`, `$not`, `$type`, ...) are never served; nested
 * paths neither (only top-level fields are indexed).
 */

export type ServedOperator = 'eq' | 'in' | 'range';
type RangeOperator = '$gt' | '$gte' | '$lt' | '$lte';

interface Bound {
  operator: RangeOperator;
  value: number | string;
}

export interface ServedCondition {
  field: string;
  operator: ServedOperator;
  /** `eq` and `in`: the values looked up. */
  values: readonly unknown[];
  /** `range`: at most one lower and one upper bound, of one type (number or string). */
  lower: Bound | null;
  upper: Bound | null;
  /** The field's condition is exactly this (no other operator): the records it matches are the index's. */
  exact: boolean;
}

const isIndexScalar = (value: unknown): boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const RANGE_OPERATORS: readonly RangeOperator[] = ['$gt', '$gte', '$lt', '$lte'];

function rangeOf(field: string, condition: Criteria, operators: number): ServedCondition | null {
  let lower: Bound | null = null;
  let upper: Bound | null = null;
  let used = 0;
  for (const operator of RANGE_OPERATORS) {
    const value = condition[operator];
    if (typeof value !== 'number' && typeof value !== 'string') continue;
    if ((lower ?? upper) && typeof value !== typeof (lower ?? upper)?.value) continue;
    const isLower = operator === '$gt' || operator === '$gte';
    if (isLower ? lower : upper) continue;
    if (isLower) lower = { operator, value };
    else upper = { operator, value };
    used += 1;
  }
  if (!lower && !upper) return null;
  return { field, operator: 'range', values: [], lower, upper, exact: used === operators };
}

function servedOn(field: string, condition: Criteria): ServedCondition | null {
  const operators = Object.keys(condition).length;
  const none = { field, values: [], lower: null, upper: null };
  if (Object.hasOwn(condition, '$eq') && isIndexScalar(condition.$eq))
    return { ...none, operator: 'eq', values: [condition.$eq], exact: operators === 1 };
  const list = condition.$in;
  if (Array.isArray(list) && list.every(isIndexScalar)) {
    const values = list.filter((value, at) => list.findIndex((other) => compareSortKeys(other, value) === 0) === at);
    return { ...none, operator: 'in', values, exact: operators === 1 };
  }
  return rangeOf(field, condition, operators);
}

export interface ServedFilter {
  conditions: ServedCondition[];
  /** The filter is exactly these conditions together: every part of it is an exact served condition. */
  complete: boolean;
}

/** The served conditions of a (rewritten) filter, top level and inside `$and`. */
export function servedConditions(criteria: Criteria): ServedFilter {
  const conditions: ServedCondition[] = [];
  let complete = true;
  const visit = (node: Criteria) => {
    for (const [key, condition] of Object.entries(node)) {
      if (key === '$and') for (const branch of condition as Criteria[]) visit(branch);
      else if (key.startsWith('$') || key.includes('.')) complete = false;
      else {
        const found = servedOn(key, condition as Criteria);
        if (found) conditions.push(found);
        complete &&= found?.exact === true;
      }
    }
  };
  visit(criteria);
  return { conditions, complete };
}

const typeMinimum = (type: string): unknown => (type === 'number' ? -Infinity : '');
/** A value after every value of the type and before the next type: Infinity after numbers, `{}` after strings. */
const typeEnd = (type: string): unknown => (type === 'number' ? Infinity : {});

/**
 * The range a condition's candidates are looked up in. On a multikey index, different elements
 * may meet the two bounds of a range (`[0, 10]` is in `{ $gt: 1, $lt: 5 }`), so only the lower
 * bound narrows there.
 */
function boundsOn(index: FieldIndex, condition: ServedCondition) {
  const lower = condition.lower;
  const upper = lower && index.multikey ? null : condition.upper;
  return { lower, upper, type: typeof (lower ?? upper)?.value };
}

/**
 * Whether a value an index files a record under makes the record a candidate of `condition`.
 * Looked-up values and bounds are scalars, and between a scalar and a value of its own type
 * compareSortKeys is `===`, `<` and `>`: the tests below use those directly (counts run them on
 * every candidate).
 */
export function acceptsOf(index: FieldIndex, condition: ServedCondition): (value: unknown) => boolean {
  if (condition.operator !== 'range') {
    const values = new Set(condition.values);
    return (value) => values.has(value);
  }
  const { lower, upper, type } = boundsOn(index, condition);
  const low = lower?.value as number;
  const high = upper?.value as number;
  const aboveLow = !lower
    ? null
    : lower.operator === '$gt'
      ? (value: number) => value > low
      : (value: number) => value >= low;
  const belowHigh = !upper
    ? null
    : upper.operator === '$lt'
      ? (value: number) => value < high
      : (value: number) => value <= high;
  return (value) =>
    typeof value === type &&
    (aboveLow === null || aboveLow(value as number)) &&
    (belowHigh === null || belowHigh(value as number));
}

/**
 * Visits the index entries of the records that may meet `condition` (a record can come more than
 * once): each looked-up value's stretch of the tree, or the range's.
 */
export function candidatesOf(
  index: FieldIndex,
  condition: ServedCondition,
  visit: (value: unknown, slot: Slot) => void,
) {
  if (condition.operator === 'range') index.between(...stretchOf(index, condition), visit);
  else for (const value of condition.values) index.between(...stretchOf(index, condition, value), visit);
}

/**
 * How many records that may meet `condition` `test` accepts, on an index that files each record
 * once (not multikey): the entries of each looked-up value's stretch, or the range's.
 */
export function countCandidates(
  index: FieldIndex,
  condition: ServedCondition,
  test: (key: IndexKey) => boolean,
): number {
  if (condition.operator === 'range') return index.countWhere(...stretchOf(index, condition), test);
  let count = 0;
  for (const value of condition.values) count += index.countWhere(...stretchOf(index, condition, value), test);
  return count;
}

/** The first and last positions of the stretch of one looked-up value or range. */
function stretchOf(index: FieldIndex, condition: ServedCondition, value?: unknown): [IndexKey, IndexKey] {
  if (condition.operator !== 'range')
    return [
      [value, -Infinity],
      [value, Infinity],
    ];
  const { lower, upper, type } = boundsOn(index, condition);
  const low: IndexKey = lower
    ? [lower.value, lower.operator === '$gt' ? Infinity : -Infinity]
    : [typeMinimum(type), -Infinity];
  const high: IndexKey = upper
    ? [upper.value, upper.operator === '$lt' ? -Infinity : Infinity]
    : [typeEnd(type), -Infinity];
  return [low, high];
}

/**
 * How many index entries `condition` looks up, counted in the tree without visiting them (a
 * multikey record counts once per value met): the planner's estimate of its candidates.
 */
export function entriesOf(index: FieldIndex, condition: ServedCondition): number {
  if (condition.operator === 'range') return index.countBetween(...stretchOf(index, condition));
  let entries = 0;
  for (const value of condition.values) entries += index.countBetween(...stretchOf(index, condition, value));
  return entries;
}

/** True when the candidates of `condition` are exactly the records meeting it. */
export function isExact(index: FieldIndex, condition: ServedCondition): boolean {
  if (!condition.exact) return false;
  return condition.operator !== 'range' || !index.multikey || !condition.lower || !condition.upper;
}
