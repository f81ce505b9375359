/**
 * The entity calls a page seldom makes (bulk updates, upserts, counts, aggregation). Loaded on first
 * use, so they cost nothing up front.
 */
import { invalidArgument, toJson } from '../core/errors';
import type { CallOptions, Transport } from '../core/transport';
import { isPlainObject } from '../core/validate';

type Call = (
  transport: Transport,
  collection: string,
  args: unknown[],
  options: CallOptions | undefined,
) => Promise<unknown>;

function requireArray(method: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw invalidArgument(`${method} needs an array of records`);
  return value;
}

function requireObject(method: string, label: string, value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidArgument(`${method} needs ${label} as an object`);
  return value;
}

export const seldomEntityCalls: Record<'updateMany' | 'bulkUpdate' | 'upsert' | 'count' | 'aggregate', Call> = {
  updateMany: (transport, collection, [query, data], options) =>
    transport.request(
      {
        method: 'PATCH',
        path: `${collection}/update-many`,
        body: {
          query: requireObject('updateMany', 'a query', query),
          data: requireObject('updateMany', 'an update', data),
        },
      },
      options,
    ),
  bulkUpdate: (transport, collection, [records], options) =>
    transport.request(
      { method: 'PUT', path: `${collection}/bulk`, body: requireArray('bulkUpdate', records) },
      options,
    ),
  upsert: (transport, collection, [records, upsertOptions], options) => {
    const key = isPlainObject(upsertOptions) ? upsertOptions.key : undefined;
    if (typeof key !== 'string' && !Array.isArray(key))
      throw invalidArgument('upsert needs options.key: a field name or a list of them');
    return transport.request(
      { method: 'POST', path: `${collection}/upsert`, body: { records: requireArray('upsert', records), key } },
      options,
    );
  },
  async count(transport, collection, [query], options) {
    const result = await transport.request<{ count: number }>(
      { method: 'GET', path: `${collection}/count`, query: { q: query ? toJson('The filter', query) : undefined } },
      options,
    );
    return result?.count;
  },
  aggregate: (transport, collection, [spec], options) =>
    transport.request(
      { method: 'POST', path: `${collection}/aggregate`, body: requireObject('aggregate', 'a spec', spec) },
      options,
    ),
};
