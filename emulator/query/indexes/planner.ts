import type { RecordPredicate } from '../engine';
import type { Criteria } from '../filter';
import type { SortKey } from '../sort';
import type { CollectionIndexes } from './collection-indexes';
import {
  answersExactly,
  candidatesOf,
  servedConditions,
  type ServedCondition,
  type ServedOperator,
} from './conditions';
import type { FieldIndex, Slot } from './field-index';

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
 * Costs are in records read (see planRead).
 */

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
  | { strategy: 'index-filter'; index: FieldIndex; condition: ServedCondition; found: Candidates }
  | { strategy: 'index-count'; index: FieldIndex; condition: ServedCondition };

/** Index entries met (a multikey record may come more than once). */
export type Candidates = Slot[];

interface Estimate {
  index: FieldIndex;
  condition: ServedCondition;
  candidates: number;
  /** Every candidate when fewer than the cap; the plan reads them without visiting the index again. */
  found: Candidates;
}

function collectUpTo(index: FieldIndex, condition: ServedCondition, cap: number): Candidates {
  const found: Candidates = [];
  candidatesOf(index, condition, (_value, slot) => found.push(slot) < cap);
  return found;
}

/** The filter's served conditions on indexed fields; the others go to `notes`. */
function indexedConditions(indexes: CollectionIndexes, filter: RecordPredicate, notes: string[]) {
  const criteria = 'criteria' in filter ? (filter.criteria as Criteria) : null;
  const found: { index: FieldIndex; condition: ServedCondition }[] = [];
  for (const condition of criteria ? servedConditions(criteria) : []) {
    const index = indexes.field(condition.field);
    if (index) found.push({ index, condition });
    else notes.push(`filter on "${condition.field}": the field is not indexed (no schema declares it)`);
  }
  return found;
}

/** The most selective condition: the fewest candidates, each counted up to the best so far (at most `cap`). */
function mostSelective(conditions: readonly { index: FieldIndex; condition: ServedCondition }[], cap: number) {
  let best: Estimate | null = null;
  for (const { index, condition } of conditions) {
    const found = collectUpTo(index, condition, best ? best.candidates : cap);
    if (!best || found.length < best.candidates) best = { index, condition, candidates: found.length, found };
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

/**
 * A walk is expected to read `take × records / matches` records, a filter its candidates: the walk
 * wins once candidates reach √(take × records), so candidates are counted up to that (or, with no
 * walk to compare with, up to half the records, past which a scan is cheaper).
 */
export function planRead(indexes: CollectionIndexes | null, visibility: Visibility, request: ReadRequest) {
  const notes: string[] = [];
  if (!indexes) return { plan: { strategy: 'scan' } as Plan, notes: ['no records'] };
  const conditions = indexedConditions(indexes, request.filter, notes);
  if (request.countOnly && visibility.seesEverything) {
    const exact = conditions.find(({ index, condition }) => answersExactly(index, condition));
    if (exact) return { plan: { strategy: 'index-count', ...exact } as Plan, notes };
  }
  const walkable = request.countOnly ? null : sortIndex(indexes, request.sort, visibility, notes);
  const half = Math.floor(indexes.size / 2);
  const cap = walkable ? Math.min(half, Math.ceil(Math.sqrt(request.take * indexes.size)) + 1) : half;
  const best = mostSelective(conditions, Math.max(cap, 1));
  if (walkable && (!best || (request.take * indexes.size) / Math.max(best.candidates, 1) <= best.candidates)) {
    const descending = (request.sort?.[0] as SortKey).descending;
    return { plan: { strategy: 'index-sort', index: walkable, descending } as Plan, notes };
  }
  // Below the cap, `found` holds every candidate.
  if (best && best.candidates < half && best.candidates < cap)
    return { plan: { strategy: 'index-filter', ...best } as Plan, notes };
  if (best) notes.push(`filter on "${best.condition.field}": it may match half the records or more`);
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
