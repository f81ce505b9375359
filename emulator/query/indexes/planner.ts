import type { RecordPredicate } from '../engine';
import type { SortKey } from '../sort';
import type { CollectionIndexes } from './collection-indexes';
import {
  answersExactly,
  candidatesOf,
  servedConditions,
  type ServedCondition,
  type ServedOperator,
} from './conditions';
import type { FieldIndex } from './field-index';

/**
 * The query planner: picks, for one read, the cheapest of
 *
 * - `index-sort`: walk the index of the first sort key in order, view and filter each record, stop
 *   once `take` matches are in (sort + limit, also with a filter that matches densely);
 * - `index-filter`: read only the records an index files under the filter's equality, `$in` or
 *   range values (a superset of the matches), in insertion order, then view, filter, sort as a scan;
 * - `index-count`: count those entries without reading a record, where they are exactly the
 *   matches and the caller sees every record whole;
 * - `scan`: every record, as before, for whatever no index serves.
 *
 * Costs are in records visited: a filter's candidates are counted up to ESTIMATE_CAP; a walk is
 * expected to visit `take` × records / matches, matches estimated by the smallest candidate count.
 */

export const ESTIMATE_CAP = 2048;

/** What a read needs. `sort` null: insertion order; `take`: how many matches at most (Infinity: all). */
export interface ReadRequest {
  filter: RecordPredicate;
  sort: readonly SortKey[] | null;
  take: number;
  /** Only counted (no record is returned). */
  countOnly?: boolean;
}

/** What the planner must know of the caller's rules (model/security.ts). */
export interface Visibility {
  /** A field rule may leave `field` out of this caller's view of some record. */
  mayHideField(field: string): boolean;
  /** Every record is readable and whole for this caller (its views are the stored records). */
  readonly seesEverything: boolean;
}

export type PlanDescription =
  | { strategy: 'scan'; notes: string[] }
  | { strategy: 'index-sort'; field: string; descending: boolean; notes: string[] }
  | { strategy: 'index-filter' | 'index-count'; field: string; operator: ServedOperator; notes: string[] };

export type Plan =
  | { strategy: 'scan' }
  | { strategy: 'index-sort'; index: FieldIndex; descending: boolean }
  | { strategy: 'index-filter'; index: FieldIndex; condition: ServedCondition }
  | { strategy: 'index-count'; index: FieldIndex; condition: ServedCondition };

interface Estimate {
  index: FieldIndex;
  condition: ServedCondition;
  candidates: number;
}

function countUpTo(index: FieldIndex, condition: ServedCondition, cap: number): number {
  let count = 0;
  for (const entry of candidatesOf(index, condition)) {
    void entry;
    count += 1;
    if (count >= cap) break;
  }
  return count;
}

/** The most selective served condition of the filter (the smallest candidate count, counted up to `cap`). */
function bestFilter(indexes: CollectionIndexes, filter: RecordPredicate, notes: string[]): Estimate | null {
  const criteria = 'criteria' in filter ? (filter.criteria as Record<string, unknown>) : null;
  if (!criteria) return null;
  let best: Estimate | null = null;
  for (const condition of servedConditions(criteria)) {
    const index = indexes.field(condition.field);
    if (!index) {
      notes.push(`filter on "${condition.field}": the field is not indexed (no schema declares it)`);
      continue;
    }
    const candidates = countUpTo(index, condition, best ? best.candidates : ESTIMATE_CAP);
    if (!best || candidates < best.candidates) best = { index, condition, candidates };
  }
  return best;
}

/** The index a sort can walk, or null with the reason in `notes`. */
function sortIndex(
  indexes: CollectionIndexes,
  sort: readonly SortKey[] | null,
  visibility: Visibility,
  notes: string[],
): FieldIndex | null {
  const first = sort?.[0];
  if (!first) return null;
  const index = indexes.field(first.path);
  if (first.path.includes('.')) notes.push(`sort on "${first.path}": nested paths are not indexed`);
  else if (!index) notes.push(`sort on "${first.path}": the field is not indexed (no schema declares it)`);
  else if (visibility.mayHideField(first.path))
    notes.push(`sort on "${first.path}": a field rule may hide it from this caller`);
  else return index;
  return null;
}

export function planRead(indexes: CollectionIndexes | null, visibility: Visibility, request: ReadRequest) {
  const notes: string[] = [];
  if (!indexes) return { plan: { strategy: 'scan' } as Plan, notes: ['no records'] };
  const filter = bestFilter(indexes, request.filter, notes);
  if (request.countOnly && filter && visibility.seesEverything && answersExactly(filter.index, filter.condition))
    return { plan: { strategy: 'index-count', index: filter.index, condition: filter.condition } as Plan, notes };
  const walkable = request.countOnly ? null : sortIndex(indexes, request.sort, visibility, notes);
  if (walkable) {
    const walkCost = filter ? (request.take * indexes.size) / Math.max(filter.candidates, 1) : request.take;
    if (!filter || walkCost <= filter.candidates) {
      const descending = (request.sort?.[0] as SortKey).descending;
      return { plan: { strategy: 'index-sort', index: walkable, descending } as Plan, notes };
    }
  }
  if (filter) {
    // Reading most records through an index costs more than reading them in order: scan then.
    const half = Math.floor(indexes.size / 2);
    const candidates =
      filter.candidates < ESTIMATE_CAP ? filter.candidates : countUpTo(filter.index, filter.condition, half);
    if (candidates < half)
      return { plan: { strategy: 'index-filter', index: filter.index, condition: filter.condition } as Plan, notes };
    notes.push(`filter on "${filter.condition.field}": it may match half the records or more`);
  }
  return { plan: { strategy: 'scan' } as Plan, notes };
}

export function describePlan(plan: Plan, notes: string[]): PlanDescription {
  switch (plan.strategy) {
    case 'scan':
      return { strategy: 'scan', notes };
    case 'index-sort':
      return { strategy: 'index-sort', field: plan.index.field, descending: plan.descending, notes };
    default:
      return { strategy: plan.strategy, field: plan.index.field, operator: plan.condition.operator, notes };
  }
}
