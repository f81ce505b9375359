import { acceptsOf, candidatesOf, countCandidates, entriesOf } from './conditions';
import type { IndexKey } from './field-index';
import type { IndexedCondition } from './planner';

/**
 * How many records meet every one of `conditions` (each exact, see isExact), from the indexes
 * alone: no record is viewed or filtered. One condition on an index without arrays is the count of
 * its stretches in the tree (a leaf at a time); otherwise the entries of the most selective
 * condition (the first) are visited, each record once, and checked against the others by the
 * values their indexes filed it under.
 */
export function countFromIndexes(conditions: readonly IndexedCondition[]): number {
  const [first, ...rest] = conditions;
  if (!first) throw new Error('countFromIndexes needs a condition');
  if (rest.length === 0 && !first.index.multikey) return entriesOf(first.index, first.condition);
  // Checked by the entry's key (FieldIndex.filesEntry): the records' slots are never read.
  const checks = rest.map(({ index, condition }) => {
    const accepts = acceptsOf(index, condition);
    return (key: IndexKey) => index.filesEntry(key, accepts);
  });
  const [only] = checks;
  const meetsRest = checks.length === 1 && only ? only : (key: IndexKey) => checks.every((check) => check(key));
  if (!first.index.multikey) return countCandidates(first.index, first.condition, meetsRest);
  const seen = new Set<number>();
  let count = 0;
  candidatesOf(first.index, first.condition, (value, slot) => {
    if (seen.has(slot.seq)) return;
    seen.add(slot.seq);
    if (meetsRest([value, slot.seq, slot])) count += 1;
  });
  return count;
}
