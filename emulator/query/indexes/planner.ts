import type { RecordPredicate } from '../engine';
import type { Criteria } from '../filter';
import type { SortKey } from '../sort';
import type { CollectionIndexes } from './collection-indexes';
import {
  acceptsOf,
  entriesOf,
  isExact,
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
 * - `index-count`: count without reading a record, where the filter is exactly a conjunction of
 *   served conditions and the caller sees every record whole: the entries of the most selective
 *   condition, each checked against the others by the values the other indexes filed it under;
 * - `scan`: every record, as before, for whatever no index serves.
 *
 * Walks and filters skip, before viewing and filtering it, a record that some other served
 * condition's index does not file under a value it accepts: such a record cannot match.
 * Costs are in records read (see planRead); candidates are counted in the trees, not visited.
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
  | { strategy: 'index-filter'; field: string; operator: ServedOperator; notes: string[] }
  | { strategy: 'index-count'; field: string; operator: ServedOperator; checked: string[]; notes: string[] };

/** A served condition with the index of its field. */
export interface IndexedCondition {
  index: FieldIndex;
  condition: ServedCondition;
}

/** A necessary test of a record (by its slot) that a match cannot fail. */
export type SlotCheck = (slot: Slot) => boolean;

export type Plan =
  | { strategy: 'scan' }
  | { strategy: 'index-sort'; index: FieldIndex; descending: boolean; checks: SlotCheck[] }
  | { strategy: 'index-filter'; index: FieldIndex; condition: ServedCondition; checks: SlotCheck[] }
  /** `conditions`: the most selective first. */
  | { strategy: 'index-count'; conditions: IndexedCondition[] };

interface Served {
  conditions: (IndexedCondition & { entries: number })[];
  /** Every part of the filter is one of `conditions`, each exact: the indexes alone can count. */
  countable: boolean;
}

/** The filter's served conditions on indexed fields, most selective first; the others go to `notes`. */
function indexedConditions(indexes: CollectionIndexes, filter: RecordPredicate, notes: string[]): Served {
  const criteria = 'criteria' in filter ? (filter.criteria as Criteria) : null;
  if (!criteria) return { conditions: [], countable: false };
  const served = servedConditions(criteria);
  let countable = served.complete;
  const found: Served['conditions'] = [];
  for (const condition of served.conditions) {
    const index = indexes.field(condition.field);
    if (index) found.push({ index, condition, entries: entriesOf(index, condition) });
    else notes.push(`filter on "${condition.field}": the field is not indexed (no schema declares it)`);
    countable &&= index !== undefined && isExact(index, condition);
  }
  found.sort((left, right) => left.entries - right.entries);
  return { conditions: found, countable };
}

/** The tests of `conditions` on a record's slot (each a superset of the matches). */
function checksOf(conditions: readonly IndexedCondition[]): SlotCheck[] {
  return conditions.map(({ index, condition }) => {
    const accepts = acceptsOf(index, condition);
    return (slot) => index.files(slot, accepts);
  });
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
  if (first.path.includes('.')) notes.push(`sort on "${first.path}": nested paths are not indexed`);
  else if (visibility.mayHideField(first.path))
    notes.push(`sort on "${first.path}": a field rule may hide it from this caller`);
  else {
    // Built only once it can be used.
    const index = indexes.field(first.path);
    if (index) return index;
    notes.push(`sort on "${first.path}": the field is not indexed (no schema declares it)`);
  }
  return null;
}

/**
 * A walk is expected to read `take × records / matches` records, a filter its candidates (the
 * entries of its most selective condition, counted in the tree): the walk wins once candidates
 * reach √(take × records); without a walk, a filter that may match half the records or more scans.
 */
export function planRead(indexes: CollectionIndexes | null, visibility: Visibility, request: ReadRequest) {
  const notes: string[] = [];
  if (!indexes) return { plan: { strategy: 'scan' } as Plan, notes: ['no records'] };
  const { conditions, countable } = indexedConditions(indexes, request.filter, notes);
  if (request.countOnly && visibility.seesEverything && countable && conditions.length > 0)
    return { plan: { strategy: 'index-count', conditions } as Plan, notes };
  const walkable = request.countOnly ? null : sortIndex(indexes, request.sort, visibility, notes);
  const best = conditions[0];
  const candidates = best ? Math.max(best.entries, 1) : Infinity;
  if (walkable && (request.take * indexes.size) / candidates <= candidates) {
    const descending = (request.sort?.[0] as SortKey).descending;
    return {
      plan: { strategy: 'index-sort', index: walkable, descending, checks: checksOf(conditions) } as Plan,
      notes,
    };
  }
  if (best && best.entries < indexes.size / 2) {
    const plan = { strategy: 'index-filter', ...best, checks: checksOf(conditions.slice(1)) };
    return { plan: plan as Plan, notes };
  }
  if (best) notes.push(`filter on "${best.condition.field}": it may match half the records or more`);
  return { plan: { strategy: 'scan' } as Plan, notes };
}

export function describePlan(plan: Plan, notes: string[]): PlanDescription {
  switch (plan.strategy) {
    case 'scan':
      return { strategy: 'scan', notes };
    case 'index-sort':
      return { strategy: 'index-sort', field: plan.index.field, descending: plan.descending, notes };
    case 'index-filter':
      return { strategy: plan.strategy, field: plan.index.field, operator: plan.condition.operator, notes };
    case 'index-count': {
      const [first, ...checked] = plan.conditions as [IndexedCondition, ...IndexedCondition[]];
      const fields = checked.map(({ condition }) => condition.field);
      return {
        strategy: plan.strategy,
        field: first.index.field,
        operator: first.condition.operator,
        checked: fields,
        notes,
      };
    }
  }
}
