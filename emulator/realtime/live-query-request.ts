import { compileFilter, MATCH_ALL } from '../query/engine';
import { filterNodes } from '../query/filter';
import { DEFAULT_LIMIT, MAX_LIMIT, parseFields, type ListQuery } from '../query/list-query';
import { parseSort } from '../query/sort';
import { isJsonObject } from '../util/json-object';
import { asRefusal, JoinRefused } from './access';
import type { WatchSize } from './live-query-budget';

/**
 * The payloads of `subscribe_query` / `unsubscribe_query` (docs/LIVE-QUERIES.md), checked as strictly
 * as the same parameters of `filter()` over HTTP: a live query is exactly `filter(filter, sort,
 * limit, 0, fields)`, with the same defaults (newest first, the default page) and the same limits.
 */

export interface QueryAddress {
  appId: string;
  entity: string;
  /** Chosen by the client, unique on its socket: one socket carries many live queries. */
  queryId: string;
}

export interface LiveQueryRequest extends QueryAddress {
  query: ListQuery;
  /** The options as the client sent them, echoed in `subscribed`. */
  options: Record<string, unknown>;
  /** Conditions and values of its filter (0 without one): part of what the watch counts (live-query-budget.ts). */
  filterNodes: number;
  /** Size of `options` as JSON (UTF-8 bytes), which the server keeps with the watch: counted too. */
  optionBytes: number;
}

const QUERY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The largest `options` of a live query, as JSON: what `filter()` can carry, since it sends its
 * filter, sort and fields in the address of a GET (Node's servers take 16 KiB of request line and
 * headers). The server keeps a watch's options (twice: as sent, and in its window's key), so without
 * this one user's 200 watches of a 900 KB filter string took 586 MiB.
 */
export const MAX_OPTION_BYTES = 16_384;
const OPTION_NAMES = new Set(['filter', 'sort', 'fields', 'limit']);
const DEFAULT_SORT = '-created_date';

function invalid(message: string): JoinRefused {
  return new JoinRefused(message, 'invalid_query');
}

/** `app_id`, `entity_name` and `query_id` of either event. */
export function parseQueryAddress(payload: unknown): QueryAddress {
  if (!isJsonObject(payload)) throw invalid('A live query message must be an object');
  const { app_id: appId, entity_name: entity, query_id: queryId } = payload;
  if (typeof appId !== 'string' || appId === '') throw invalid('app_id must be a non-empty string');
  if (typeof entity !== 'string' || entity === '') throw invalid('entity_name must be a non-empty string');
  if (typeof queryId !== 'string' || !QUERY_ID.test(queryId))
    throw invalid('query_id must be 1 to 64 letters, digits, "_" or "-"');
  return { appId, entity, queryId };
}

function parseLimit(limit: unknown): number {
  if (limit === undefined || limit === null || limit === 0) return DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT)
    throw invalid(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

function parseFilter(filter: unknown): ListQuery['filter'] {
  if (filter === undefined || filter === null) return MATCH_ALL;
  if (!isJsonObject(filter)) throw invalid('filter must be an object, e.g. { "status": "open" }');
  // The HTTP layer's checks (operators, depth, size): the same 400 messages, as refusals.
  return asRefusal(() => compileFilter(filter));
}

function parseFieldList(fields: unknown): string[] | null {
  if (fields === undefined || fields === null) return null;
  if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string'))
    throw invalid('fields must be an array of field names');
  return asRefusal(() => parseFields(fields.join(',')));
}

/** A `subscribe_query` payload as the query it asks for; anything malformed is refused whole. */
export function parseLiveQueryRequest(
  payload: unknown,
  address: QueryAddress = parseQueryAddress(payload),
): LiveQueryRequest {
  const options = (payload as Record<string, unknown>).options ?? {};
  if (!isJsonObject(options)) throw invalid('options must be an object { filter, sort, fields, limit }');
  const unknown = Object.keys(options).find((name) => !OPTION_NAMES.has(name));
  if (unknown !== undefined) throw invalid(`Unknown option "${unknown.slice(0, 40)}" (filter, sort, fields, limit)`);
  // Before the filter is compiled: a refusal of an oversized query costs no more than reading it.
  const optionBytes = Buffer.byteLength(JSON.stringify(options));
  if (optionBytes > MAX_OPTION_BYTES)
    throw invalid(
      `The options of a live query are ${optionBytes.toLocaleString('en-US')} bytes as JSON; at most ` +
        `${MAX_OPTION_BYTES.toLocaleString('en-US')} are allowed (about what filter() can send in its address)`,
    );
  const { sort } = options;
  if (sort !== undefined && sort !== null && typeof sort !== 'string') throw invalid('sort must be a string');
  const query: ListQuery = {
    filter: parseFilter(options.filter),
    sort: asRefusal(() => parseSort(typeof sort === 'string' && sort !== '' ? sort : DEFAULT_SORT)),
    limit: parseLimit(options.limit),
    skip: 0,
    fields: parseFieldList(options.fields),
  };
  const nodes = query.filter === MATCH_ALL ? 0 : filterNodes(options.filter);
  return { ...address, query, options, filterNodes: nodes, optionBytes };
}

/** What a watch of this request counts against its caller's and app's live rows. */
export function watchSize(request: LiveQueryRequest): WatchSize {
  return { limit: request.query.limit, filterNodes: request.filterNodes, optionBytes: request.optionBytes };
}
