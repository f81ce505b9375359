/**
 * The exact edit from one result of a live query to the next, so a client keeps its list equal to
 * the server's without ever sorting or filtering itself (docs/LIVE-QUERIES.md, "update_model").
 *
 * Applying an edit: drop every record whose id is in `remove` or in `put`, then insert each `put`
 * record at its `index`, in ascending order of index. The records that stay are the longest run of
 * unchanged records already in the right relative order, so one write costs a few entries whatever
 * the list's length, and anything else (a resync, a batch) still comes out exact.
 */

export type ResultRecord = Record<string, unknown> & { id: string };

/** One record of a result with its JSON text (what the client holds, compared by value). */
export interface ResultRow {
  readonly id: string;
  readonly json: string;
  readonly record: ResultRecord;
}

export interface ResultEdit<Row extends ResultRow = ResultRow> {
  /** Ids that left the result. */
  remove: string[];
  /** Rows that entered, changed or moved, each at its index in the new result. */
  put: { index: number; row: Row }[];
}

/** Indexes (into `values`) of a longest strictly increasing subsequence; O(n log n). */
function longestIncreasingRun(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(values.length).fill(-1);
  values.forEach((value, at) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((values[tails[middle] as number] as number) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[at] = tails[low - 1] as number;
    tails[low] = at;
  });
  const run = new Set<number>();
  for (let at = tails.length > 0 ? (tails[tails.length - 1] as number) : -1; at !== -1; at = previous[at] as number)
    run.add(at);
  return run;
}

/**
 * The edit from `before` to `after`; null when they are equal. A row object found in both is
 * unchanged without comparing its text (windows keep the objects of rows a write did not touch).
 */
export function diffResults<Row extends ResultRow>(
  before: readonly ResultRow[],
  after: readonly Row[],
): ResultEdit<Row> | null {
  const positionBefore = new Map<string, number>();
  before.forEach((row, at) => positionBefore.set(row.id, at));
  // Records unchanged in content, with where they were: the candidates to stay where they are.
  const unchanged: { after: number; before: number }[] = [];
  after.forEach((row, at) => {
    const was = positionBefore.get(row.id);
    if (was === undefined) return;
    const previous = before[was] as ResultRow;
    if (previous === row || previous.json === row.json) unchanged.push({ after: at, before: was });
  });
  const staying = new Set<number>();
  for (const at of longestIncreasingRun(unchanged.map((entry) => entry.before)))
    staying.add((unchanged[at] as { after: number }).after);
  const afterIds = new Set(after.map((row) => row.id));
  const remove = before.filter((row) => !afterIds.has(row.id)).map((row) => row.id);
  const put = after.flatMap((row, index) => (staying.has(index) ? [] : [{ index, row }]));
  return remove.length === 0 && put.length === 0 ? null : { remove, put };
}

/**
 * The proposal's `change_type` of a message: how the written record's place in the result changed;
 * for a write that only moved other records (or a resync), what the edit did.
 */
export function changeType(
  before: { has(id: string): boolean },
  after: { has(id: string): boolean },
  id: string | undefined,
  edit: ResultEdit,
): 'added' | 'modified' | 'removed' {
  const was = id !== undefined && before.has(id);
  const is = id !== undefined && after.has(id);
  if (was !== is) return is ? 'added' : 'removed';
  if (was) return 'modified';
  if (edit.put.some(({ row }) => !before.has(row.id))) return 'added';
  return edit.remove.length > 0 ? 'removed' : 'modified';
}

/**
 * The edit of a window update that took the changed records out, put their rows back where they
 * sort, cut and read further (live-query-window.ts), found without comparing the rows nobody
 * touched: those are the same objects in the same order, so only the changed and the new rows are
 * looked at. `before` and `after` are what subscribers saw and see (the first rows of the window);
 * untouched rows seen in `after` beyond those seen before come from the window's reserve.
 * A changed record's row is left in place when its text and sort keys are the same and it has as
 * many untouched rows before it as it had (and such rows keep their order among themselves).
 *
 * `fresh` are the rows made in this update; `changed` the ids whose rows were replaced.
 */
export function windowEdit<Row extends ResultRow>(
  before: readonly Row[],
  after: readonly Row[],
  changed: { has(id: string): boolean },
  fresh: ReadonlySet<Row>,
  sameContent: (was: Row, now: Row) => boolean,
): ResultEdit<Row> | null {
  const previous = new Map<string, { row: Row; untouchedBefore: number }>();
  const untouched: Row[] = [];
  for (const row of before) {
    if (changed.has(row.id)) previous.set(row.id, { row, untouchedBefore: untouched.length });
    else untouched.push(row);
  }
  const put: { index: number; row: Row }[] = [];
  const staying: { index: number; row: Row }[] = [];
  const back = new Set<string>();
  let untouchedSeen = 0;
  after.forEach((row, index) => {
    if (!fresh.has(row)) {
      // Untouched rows come in the same order: the client holds the first ones, not those after.
      if (untouchedSeen >= untouched.length) put.push({ index, row });
      untouchedSeen += 1;
      return;
    }
    const was = previous.get(row.id);
    back.add(row.id);
    if (was && was.untouchedBefore === untouchedSeen && sameContent(was.row, row)) staying.push({ index, row });
    else put.push({ index, row });
  });
  // Rows left in place must keep their order among themselves too; otherwise they all move.
  const order = [...previous.keys()].filter((id) => staying.some(({ row }) => row.id === id));
  if (order.some((id, at) => staying[at]?.row.id !== id)) {
    put.push(...staying);
    put.sort((left, right) => left.index - right.index);
  }
  const remove = [...previous.keys()].filter((id) => !back.has(id));
  // Untouched rows no longer seen were cut from the end.
  for (const row of untouched.slice(untouchedSeen)) remove.push(row.id);
  return remove.length === 0 && put.length === 0 ? null : { remove, put };
}
