import { invalidInput } from '../core/errors';
import { checkFieldPath } from '../core/json-guard';
import { readJsonBody } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { runAggregate } from '../query/aggregate';
import { decodeCursor, encodeCursor, requireSameWalk, type PageWalk } from '../query/cursor';
import { compileFilter, MATCH_ALL } from '../query/engine';
import { parseCount, parseFields, parseFilterParam, parseJsonParam } from '../query/list-query';
import { distinctPage, walkKeys } from '../query/pages';
import { parseSort } from '../query/sort';
import { countRecords, pageRecords, readable } from '../records/reads';
import { scopeOf } from './entity-request';

/**
 * Reads of @base44/sdk 0.8.50 beyond the array list: `count`, `list`/`filter` with an options
 * object (`GET .../v2/list`: cursor pages or distinct values) and `aggregate`.
 */

const DEFAULT_PAGE_LIMIT = 100;
const MAX_PAGE_LIMIT = 5000;
const MAX_DISTINCT_LIMIT = 1000;
const DEFAULT_SORT = '-created_date';

/** What this request asks for; with a cursor, the walk comes from the token instead. */
function requestedWalk(
  request: RouteRequest,
  app: string,
  entity: string,
): { walk: PageWalk; after: unknown[] | null } {
  const params = request.url.searchParams;
  const given: Partial<PageWalk> = {};
  const q = parseJsonParam('q', params.get('q'));
  if (q !== undefined) given.q = q;
  if (params.has('sort')) given.sort = params.get('sort');
  if (params.has('fields')) given.fields = parseFields(params.get('fields'));
  if (params.has('distinct')) given.distinct = params.get('distinct');
  const token = params.get('cursor');
  if (token) {
    const cursor = decodeCursor(token, app, entity);
    requireSameWalk(cursor, given);
    // A token is client input like any parameter: its fields pass the same checks (q, sort and
    // distinct are checked where they are used).
    return { walk: { ...cursor, fields: cursor.fields && parseFields(cursor.fields.join(',')) }, after: cursor.after };
  }
  const walk: PageWalk = {
    app,
    entity,
    q: given.q ?? null,
    sort: given.sort ?? null,
    fields: given.fields ?? null,
    distinct: given.distinct ?? null,
  };
  return { walk, after: null };
}

export function registerEntityReadRoutes(router: Router, context: EmulatorContext, base: string): void {
  router.add('GET', `${base}/count`, (request) => {
    const target = scopeOf(context, request);
    const matches = parseFilterParam(request.url.searchParams.get('q'));
    return jsonReply(200, { count: countRecords(context, target, matches).result });
  });

  router.add('GET', `${base}/v2/list`, (request) => {
    const target = scopeOf(context, request);
    const { walk, after } = requestedWalk(request, target.app.id, target.entity);
    const filter = walk.q === null ? MATCH_ALL : compileFilter(walk.q);
    const params = request.url.searchParams;
    if (walk.distinct !== null) {
      const field = checkFieldPath(walk.distinct, 'The distinct field', 'invalid_distinct');
      const limit =
        parseCount('limit', params.get('limit'), DEFAULT_PAGE_LIMIT, MAX_DISTINCT_LIMIT) || DEFAULT_PAGE_LIMIT;
      const page = distinctPage(readable(context, target), { filter, field, limit, after });
      return jsonReply(200, {
        items: page.items,
        next_cursor: page.last && encodeCursor({ ...walk, after: page.last }),
        has_more: page.has_more,
      });
    }
    const keys = walkKeys(parseSort(walk.sort || DEFAULT_SORT));
    if (after !== null && after.length !== keys.length)
      throw invalidInput('The cursor does not fit its sort; start again without one', 'invalid_cursor');
    const limit = parseCount('limit', params.get('limit'), DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT) || DEFAULT_PAGE_LIMIT;
    const page = pageRecords(context, target, { filter, keys, fields: walk.fields, limit, after });
    return jsonReply(200, {
      items: page.items,
      next_cursor: page.last && encodeCursor({ ...walk, after: page.last }),
      has_more: page.has_more,
    });
  });

  router.add('POST', `${base}/aggregate`, async (request) => {
    const target = scopeOf(context, request);
    const spec = await readJsonBody(request.raw, context.bodyLimitBytes);
    return jsonReply(
      200,
      request.clock.run(() => runAggregate(readable(context, target), spec)),
    );
  });
}
