import { JoinRefused } from './access';
import { CallerAppTally } from './caller-tally';

/**
 * The budget on live rows (docs/LIVE-QUERIES.md "Limits"): each watch holds up to its window size
 * (`limit`, 50 by default) of rows, which the server keeps, sends and updates for it. One caller
 * (a signed-in user over all its sockets, the service role, or one visitor's socket) and one app
 * may hold only so many; a `subscribe_query` beyond that is refused with `live_rows_exceeded`
 * before anything is read, and counts nothing. Counted by the window size asked for, not by the
 * rows there are today, so a watch accepted once is never ended because the data grew; a window
 * counts at least {@link MIN_ROWS_PER_WATCH} rows, and its filter's size on top.
 */

export const MAX_LIVE_ROWS_PER_CALLER = 100_000;
export const MAX_LIVE_ROWS_PER_APP = 500_000;
export const LIVE_ROWS_EXCEEDED = 'live_rows_exceeded';

/**
 * The fewest rows a watch counts, whatever its `limit`: a window costs the server about 5 KB before
 * its first row (its query, filing, reserve and bookkeeping; measured: 20,000 windows of one row
 * took 145 MiB, 2,000 of 50 rows 38 MiB), so windows of one row counted as one let a caller hold
 * 100,000 of them, some 700 MiB. Counted as at least the default window, a caller holds at most
 * 2,000 windows, as with default watches.
 */
export const MIN_ROWS_PER_WATCH = 50;

/**
 * Rows a watch counts for each condition and value of its filter (as the filter's size limit counts
 * them): the engine keeps a compiled filter at 0.26–0.46 KB per node (measured over the shapes the
 * limits allow: a `$or` of 100 two-field branches, 501 nodes, took 192 KB; `$elemMatch` and `$not`
 * branches the most per node), where a row costs a window about 0.25 KB. Counted as rows of none,
 * one user's 2,000 windows of the largest filters held well over a gigabyte (2,000 of that `$or`:
 * a heap of 450 MB); counted so, a caller holds at most 96 such windows, some 20 MB.
 */
export const ROWS_PER_FILTER_NODE = 2;

/**
 * Bytes of a watch's options (as JSON) that count as one row, where they count more than its
 * filter's nodes (a long string in a filter is one node): the server keeps the options twice (as
 * sent, and in the window's key), about as much as a row costs per 128 bytes.
 */
export const OPTION_BYTES_PER_ROW = 128;

/** What a watch asks the server to keep: its window, its filter and its options as sent. */
export interface WatchSize {
  limit: number;
  /** Conditions and values of its filter (query/filter.ts filterNodes); 0 without one. */
  filterNodes: number;
  /** Its options as JSON (UTF-8 bytes). */
  optionBytes: number;
}

/**
 * Rows of a query that the window's least count ({@link MIN_ROWS_PER_WATCH}) already covers: a query
 * of up to 8 conditions and values and 2 KiB of options, as most are, counts nothing more.
 */
export const QUERY_ROWS_INCLUDED = 16;

/** Rows a watch's query counts beyond its window: its filter's nodes or its options' bytes, whichever is more. */
const queryRows = ({ filterNodes, optionBytes }: WatchSize): number =>
  Math.max(
    0,
    Math.max(ROWS_PER_FILTER_NODE * filterNodes, Math.ceil(optionBytes / OPTION_BYTES_PER_ROW)) - QUERY_ROWS_INCLUDED,
  );

/** The rows a watch counts against its caller and app. */
export const rowsCounted = (size: WatchSize): number => Math.max(size.limit, MIN_ROWS_PER_WATCH) + queryRows(size);

/** 100000 as "100,000" (toLocaleString is slow enough to matter when hundreds are refused at once). */
export const formatCount = (rows: number) => String(rows).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * "50 rows", "1 row (counted as 50)" for a window smaller than a watch counts, "50 rows and a
 * filter of 501 conditions and values (counted as 1,036)", "50 rows and options of 12,000 bytes
 * (counted as 128)"; a query that counts nothing more goes unmentioned.
 */
function windowOf(size: WatchSize): string {
  const { limit, filterNodes, optionBytes } = size;
  const rows = `${formatCount(limit)} ${limit === 1 ? 'row' : 'rows'}`;
  const query = queryRows(size);
  const counted = rowsCounted(size);
  if (query === 0) return limit < MIN_ROWS_PER_WATCH ? `${rows} (counted as ${formatCount(counted)})` : rows;
  const byNodes = ROWS_PER_FILTER_NODE * filterNodes >= Math.ceil(optionBytes / OPTION_BYTES_PER_ROW);
  const what = byNodes
    ? `a filter of ${formatCount(filterNodes)} conditions and values`
    : `options of ${formatCount(optionBytes)} bytes`;
  return `${rows} and ${what} (counted as ${formatCount(counted)})`;
}

export class LiveRowsBudget {
  private readonly rows: CallerAppTally;

  constructor(perCaller = MAX_LIVE_ROWS_PER_CALLER, perApp = MAX_LIVE_ROWS_PER_APP) {
    this.rows = new CallerAppTally(perCaller, perApp);
  }

  /** Counts a watch ({@link rowsCounted}) against its caller and app, or refuses it. */
  reserve(appId: string, owner: string, size: WatchSize): void {
    const refused = this.rows.add(appId, owner, rowsCounted(size));
    if (refused?.over === 'caller')
      throw new JoinRefused(
        `This live query's window of ${windowOf(size)} would bring this caller's live queries to ` +
          `${formatCount(refused.total)} rows; at most ${formatCount(this.rows.perCaller)} are allowed (watches × window size, plus their filters). ` +
          'Stop other watches, or ask for a smaller limit or a shorter filter.',
        LIVE_ROWS_EXCEEDED,
      );
    if (refused)
      throw new JoinRefused(
        `This live query's window of ${windowOf(size)} would bring the app's live queries to ` +
          `${formatCount(refused.total)} rows; at most ${formatCount(this.rows.perApp)} are allowed for all callers together.`,
        LIVE_ROWS_EXCEEDED,
      );
  }

  /** Gives back what reserve counted for a watch of this size. */
  release(appId: string, owner: string, size: WatchSize): void {
    this.rows.release(appId, owner, rowsCounted(size));
  }
}
