import type { Criteria } from '../filter';
import { compareSortKeys } from '../sort';
import type { EntryVisitor, FieldIndex, IndexKey } from './field-index';

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
  /** The field's condition is exactly this and the filter has no other part: the index answer is the answer. */
  whole: boolean;
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
  return { field, operator: 'range', values: [], lower, upper, whole: used === operators };
}

function servedOn(field: string, condition: Criteria): ServedCondition | null {
  const operators = Object.keys(condition).length;
  const none = { field, values: [], lower: null, upper: null };
  if (Object.hasOwn(condition, '$eq') && isIndexScalar(condition.$eq))
    return { ...none, operator: 'eq', values: [condition.$eq], whole: operators === 1 };
  const list = condition.$in;
  if (Array.isArray(list) && list.every(isIndexScalar)) {
    const values = list.filter((value, at) => list.findIndex((other) => compareSortKeys(other, value) === 0) === at);
    return { ...none, operator: 'in', values, whole: operators === 1 };
  }
  return rangeOf(field, condition, operators);
}

/** The served conditions of a (rewritten) filter; `whole` only where the filter is that one field's condition. */
export function servedConditions(criteria: Criteria): ServedCondition[] {
  const served: ServedCondition[] = [];
  const alone = Object.keys(criteria).length === 1;
  const visit = (node: Criteria, top: boolean) => {
    for (const [key, condition] of Object.entries(node)) {
      if (key === '$and') for (const branch of condition as Criteria[]) visit(branch, false);
      else if (!key.startsWith('$') && !key.includes('.')) {
        const found = servedOn(key, condition as Criteria);
        if (found) served.push({ ...found, whole: found.whole && top && alone });
      }
    }
  };
  visit(criteria, true);
  return served;
}

function holds(bound: Bound | null, value: unknown): boolean {
  if (!bound) return true;
  const diff = compareSortKeys(value, bound.value);
  switch (bound.operator) {
    case '$gt':
      return diff > 0;
    case '$gte':
      return diff >= 0;
    case '$lt':
      return diff < 0;
    case '$lte':
      return diff <= 0;
  }
}

/**
 * Visits the index entries of the records that may meet `condition` (a record can come more than
 * once) until `visit` returns false. On a multikey index, different elements may meet the two
 * bounds of a range (`[0, 10]` is in `{ $gt: 1, $lt: 5 }`), so only the lower bound narrows there.
 */
export function candidatesOf(index: FieldIndex, condition: ServedCondition, visit: EntryVisitor): void {
  if (condition.operator !== 'range') {
    let going = true;
    for (const value of condition.values) {
      index.equal(value, (found, slot) => (going = visit(found, slot) !== false));
      if (!going) return;
    }
    return;
  }
  const lower = condition.lower;
  const upper = lower && index.multikey ? null : condition.upper;
  const type = typeof (lower ?? upper)?.value;
  index.stretch(
    lower ? lower.value : typeMinimum(type),
    (value) => typeof value === type && (!upper || compareSortKeys(value, upper.value) <= 0),
    (value) => holds(lower, value) && holds(upper, value),
    visit,
  );
}

const typeMinimum = (type: string): unknown => (type === 'number' ? -Infinity : '');
/** A value after every value of the type and before the next type: Infinity after numbers, `{}` after strings. */
const typeEnd = (type: string): unknown => (type === 'number' ? Infinity : {});

/** The first and last positions of the stretch a condition on a single-valued index covers. */
function stretchOf(condition: ServedCondition): [IndexKey, IndexKey] {
  if (condition.operator === 'eq')
    return [
      [condition.values[0], -Infinity],
      [condition.values[0], Infinity],
    ];
  const { lower, upper } = condition;
  const type = typeof (lower ?? upper)?.value;
  const low: IndexKey = lower
    ? [lower.value, lower.operator === '$gt' ? Infinity : -Infinity]
    : [typeMinimum(type), -Infinity];
  const high: IndexKey = upper
    ? [upper.value, upper.operator === '$lt' ? -Infinity : Infinity]
    : [typeEnd(type), -Infinity];
  return [low, high];
}

/**
 * How many records meet `condition`, from the index alone (answersExactly). Where each record has
 * one entry, the matches are one stretch of the tree, counted against the rest (countBetween): a
 * condition matching nearly every record costs the few it does not match.
 */
export function countExactly(index: FieldIndex, condition: ServedCondition): number {
  if (!index.multikey && condition.operator !== 'in') return index.countBetween(...stretchOf(condition));
  const seen = new Set<number>();
  candidatesOf(index, condition, (_value, slot) => {
    seen.add(slot.seq);
  });
  return seen.size;
}

/** True when the index entries of `condition` are exactly the records meeting the whole filter. */
export function answersExactly(index: FieldIndex, condition: ServedCondition): boolean {
  if (!condition.whole) return false;
  return condition.operator !== 'range' || !index.multikey || !condition.lower || !condition.upper;
}
