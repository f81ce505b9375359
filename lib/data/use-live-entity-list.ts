'use client';

import {
  type EntityChangeEvent,
  type EntityFields,
  type EntityFilter,
  type EntityHandler,
  type EntityRecord,
  type SortKey,
} from '@/lib/sdk';

import { applyToDefaultList } from './live-entity-changes';
import { idOf, useLiveFeed, type LiveResponse } from './use-live-feed';

/** Anything that hands out entity handlers: a client or its `asServiceRole`. */
export interface EntitySource {
  entity<T extends object = EntityFields>(name: string): EntityHandler<T>;
}

export interface LiveListQuery<T extends object> {
  /** A Mongo-like filter, as for `filter()`. */
  filter?: EntityFilter<T>;
  /** Field name, "-" prefix for descending (server default "-created_date"). */
  sort?: SortKey<T>;
  /** At most this many records (server default 50). */
  limit?: number;
}

/**
 * The records of an entity, loaded over HTTP and kept equal to the server's by real-time changes.
 * Without filter, sort and limit, changes are applied in place; otherwise each change refetches
 * (one request at a time), since only the server knows where a record belongs. After a reconnect
 * the list is refetched, so changes made while offline are not lost. `source` or `entityName`
 * null/undefined: nothing is loaded.
 *
 * @example
 * const { data: todos, live } = useLiveEntityList<Todo>(client, 'Todo');
 */
export function useLiveEntityList<T extends object = EntityFields>(
  source: EntitySource | null | undefined,
  entityName: string | null | undefined,
  query: LiveListQuery<T> = {},
): LiveResponse<EntityRecord<T>[]> {
  const { filter, sort, limit } = query;
  const key =
    source && entityName
      ? `live-entity-list:${idOf(source)}:${entityName}:${JSON.stringify([filter ?? null, sort ?? null, limit ?? null])}`
      : null;
  return useLiveFeed<EntityRecord<T>[], EntityChangeEvent<T>>(key, () => {
    const handler = (source as EntitySource).entity<T>(entityName as string);
    const isDefaultListing = filter === undefined && sort === undefined && limit === undefined;
    return {
      load: () => (filter ? handler.filter(filter, sort, limit) : handler.list(sort, limit)),
      apply: (list, change) => (isDefaultListing ? applyToDefaultList(list, change) : null),
      subscribe: (onChange, hooks) => handler.subscribe(onChange, hooks),
    };
  });
}
