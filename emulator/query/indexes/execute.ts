import type { EntityRecord } from '../../core/types';
import { compareSortKeys, sortRecords, type SortKey } from '../sort';
import type { CollectionIndexes } from './collection-indexes';
import { candidatesOf } from './conditions';
import type { Slot } from './field-index';
import { countFromIndexes } from './index-count';
import {
  describePlan,
  planRead,
  type Plan,
  type PlanDescription,
  type ReadRequest,
  type SlotCheck,
  type Visibility,
} from './planner';

/**
 * Runs a read by its plan. Every strategy hands back exactly what the scan would: the matching
 * views (row rules and field rules applied to each record read, the exact filter run on the view),
 * in the scan's order (sortRecords on matches in insertion order, ties included), the first `take`.
 */

/** The caller's rules as reads apply them (model/security.ts). */
export interface Viewer extends Visibility {
  view(record: EntityRecord): EntityRecord | null;
  views(records: readonly EntityRecord[]): readonly EntityRecord[];
}

/** An entity's stored records in insertion order, and their indexes (null when nothing was ever stored). */
export interface ReadSource {
  records: readonly EntityRecord[];
  indexes: CollectionIndexes | null;
}

export interface ReadResult<T> {
  result: T;
  plan: PlanDescription;
}

function finish(matches: EntityRecord[], request: ReadRequest): EntityRecord[] {
  if (request.sort) return sortRecords(matches, request.sort, request.take);
  return Number.isFinite(request.take) ? matches.slice(0, request.take) : matches;
}

function scan(source: ReadSource, viewer: Viewer, request: ReadRequest): EntityRecord[] {
  return finish(
    viewer.views(source.records).filter((view) => request.filter(view)),
    request,
  );
}

/**
 * The candidates of an index filter that pass the plan's other checks, once each, in insertion
 * order (any order when only counted).
 */
function candidateRecords(plan: Plan & { strategy: 'index-filter' }, ordered: boolean): EntityRecord[] {
  let slots: Slot[] = [];
  candidatesOf(plan.index, plan.condition, (_value, slot) => {
    if (passes(plan.checks, slot)) slots.push(slot);
  });
  if (ordered) slots.sort((left, right) => left.seq - right.seq);
  if (plan.index.multikey) {
    const seen = new Set<number>();
    slots = slots.filter((slot) => !seen.has(slot.seq) && seen.add(slot.seq));
  }
  return slots.map((slot) => slot.record);
}

const passes = (checks: readonly SlotCheck[], slot: Slot) => checks.every((check) => check(slot));

function viewMatch(viewer: Viewer, request: ReadRequest, record: EntityRecord): EntityRecord | null {
  const view = viewer.view(record);
  return view && request.filter(view) ? view : null;
}

/**
 * Walks the first sort key's index. Records with equal first keys form a group; with more sort
 * keys each group is put in order by sortRecords on its matches in insertion order (the walk
 * downwards meets them newest first). The walk ends after the group in which `take` is reached.
 */
function walk(
  plan: Plan & { strategy: 'index-sort' },
  viewer: Viewer,
  request: ReadRequest,
  start: unknown,
): EntityRecord[] {
  const sort = request.sort as readonly SortKey[];
  const descending = (sort[0] as SortKey).descending;
  const grouped = sort.length > 1;
  const out: EntityRecord[] = [];
  let group: EntityRecord[] = [];
  let groupValue: unknown = undefined;
  const flush = () => {
    if (descending) group.reverse();
    out.push(...sortRecords(group, sort, request.take - out.length));
    group = [];
  };
  plan.index.walk(descending, start, (value, slot) => {
    if (grouped && group.length > 0 && compareSortKeys(value, groupValue) !== 0) {
      flush();
      if (out.length >= request.take) return false;
    }
    const view = passes(plan.checks, slot) ? viewMatch(viewer, request, slot.record) : null;
    if (!view) return true;
    groupValue = value;
    if (grouped) group.push(view);
    else return out.push(view) < request.take;
    return true;
  });
  if (group.length > 0) flush();
  return out;
}

function runPlan(source: ReadSource, viewer: Viewer, request: ReadRequest, plan: Plan, start: unknown): EntityRecord[] {
  if (request.take <= 0) return [];
  if (plan.strategy === 'index-sort') return walk(plan, viewer, request, start);
  if (plan.strategy !== 'index-filter') return scan(source, viewer, request);
  const matches: EntityRecord[] = [];
  for (const record of candidateRecords(plan, !request.countOnly)) {
    const view = viewMatch(viewer, request, record);
    if (view) matches.push(view);
  }
  return finish(matches, request);
}

/**
 * The first `take` matching views in order, by the cheapest plan. `start` (keyset pages): a
 * value of the first sort key before which no wanted record sorts; an index walk begins there.
 */
export function readViews(
  source: ReadSource,
  viewer: Viewer,
  request: ReadRequest,
  start?: unknown,
): ReadResult<EntityRecord[]> {
  const { plan, notes } = planRead(source.indexes, viewer, request);
  return { result: runPlan(source, viewer, request, plan, start), plan: describePlan(plan, notes) };
}

/** How many records match, as the caller sees them. */
export function countViews(source: ReadSource, viewer: Viewer, filter: ReadRequest['filter']): ReadResult<number> {
  const request: ReadRequest = { filter, sort: null, take: Infinity, countOnly: true };
  const { plan, notes } = planRead(source.indexes, viewer, request);
  const count =
    plan.strategy === 'index-count'
      ? countFromIndexes(plan.conditions)
      : runPlan(source, viewer, request, plan, undefined).length;
  return { result: count, plan: describePlan(plan, notes) };
}
