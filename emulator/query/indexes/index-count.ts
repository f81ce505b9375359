import { candidatesOf, entriesOf } from './conditions';
import type { Slot } from './field-index';
import type { IndexedCondition, SlotCheck } from './planner';

/**
 * How many records meet every one of `conditions` (each exact, see isExact), from the indexes
 * alone: no record is viewed or filtered. One condition on an index without arrays is the count of
 * its stretches in the tree (a leaf at a time); otherwise the entries of the most selective
 * condition (the first) are visited, each record once, and checked against the others by the
 * values their indexes filed it under (`checks`).
 */
export function countFromIndexes(conditions: readonly IndexedCondition[], checks: readonly SlotCheck[]): number {
  const [first] = conditions;
  if (!first) throw new Error('countFromIndexes needs a condition');
  if (checks.length === 0 && !first.index.multikey) return entriesOf(first.index, first.condition);
  const seen = first.index.multikey ? new Set<number>() : null;
  const [only] = checks;
  const meetsRest = checks.length === 1 && only ? only : (slot: Slot) => checks.every((check) => check(slot));
  let count = 0;
  candidatesOf(first.index, first.condition, (_value, slot) => {
    if (seen) {
      if (seen.has(slot.seq)) return;
      seen.add(slot.seq);
    }
    if (meetsRest(slot)) count += 1;
  });
  return count;
}
