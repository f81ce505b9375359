import type BTree from 'sorted-btree';

/**
 * Reads of sorted-btree's own nodes (2.1.0, pinned), for what its API does not offer: a rank in
 * O(log n) and a walk over a stretch of leaves without a callback per entry (field-index.ts). A
 * node holds its keys in order; a branch's keys are its children's largest keys, and every node
 * caches the size of its subtree.
 */
export interface TreeNode<K> {
  keys: K[];
  children?: TreeNode<K>[];
  size(): number;
}

export type Compare<K> = (left: K, right: K) => number;

export const rootOf = <K, V>(tree: BTree<K, V>) => (tree as unknown as { _root: TreeNode<K> })._root;

/** The first of `keys` (sorted) that is not below `bound`; `keys.length` when all are. */
function firstNotBelow<K>(keys: readonly K[], bound: K, compare: Compare<K>): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(keys[middle] as K, bound) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Hands each leaf's stretch of entries from `low` to `high` (both included) to `visit` as its key
 * array and the positions [from, to), in order. The first child whose largest key is not below
 * `low` is the first to visit, and the visit ends with the first child whose largest key is not
 * below `high`.
 */
export function leafStretches<K>(
  node: TreeNode<K>,
  low: K,
  high: K,
  compare: Compare<K>,
  visit: (keys: readonly K[], from: number, to: number) => void,
): void {
  const keys = node.keys;
  const first = firstNotBelow(keys, low, compare);
  const children = node.children;
  if (!children) {
    let end = first;
    while (end < keys.length && compare(keys[end] as K, high) <= 0) end += 1;
    if (end > first) visit(keys, first, end);
    return;
  }
  for (let child = first; child < children.length; child += 1) {
    leafStretches(children[child] as TreeNode<K>, low, high, compare, visit);
    if (compare(keys[child] as K, high) >= 0) return;
  }
}

/**
 * How many entries of the tree sort before `bound`, in O(log n): a rank, which sorted-btree does not
 * offer (a count by `forRange` visits every leaf of the stretch: a 50,000-record count took
 * milliseconds). The first child whose largest key is not below `bound` holds the position, and
 * every child before it lies wholly below. tests/unit/emulator/query/index-rank.test.ts checks it
 * against a count by forRange after random inserts and deletes.
 */
export function entriesBelow<K>(root: TreeNode<K>, bound: K, compare: Compare<K>): number {
  let node = root;
  let below = 0;
  for (;;) {
    const low = firstNotBelow(node.keys, bound, compare);
    const children = node.children;
    if (!children) return below + low;
    if (low === children.length) return below + node.size();
    for (let child = 0; child < low; child += 1) below += (children[child] as TreeNode<K>).size();
    node = children[low] as TreeNode<K>;
  }
}
