'use client';

import type {
  EntityFields,
  EntityHandler,
  EntityRecord,
  SubscriptionHooks,
  Unsubscribe,
  WatchOptions,
  WatchSnapshot,
} from '@/lib/sdk';

import type { LiveFeedSource } from './live-feed';
import { idOf, useLiveFeed, type LiveResponse } from './use-live-feed';

/** Anything that hands out entity handlers: a client or its `asServiceRole`. */
export interface EntitySource {
  entity<T extends object = EntityFields>(name: string): EntityHandler<T>;
}

/** A filter, sort, limit and fields, as for `filter()` and `watch()`. */
export type LiveListQuery<T extends object> = WatchOptions<T>;

type Records<T extends object> = EntityRecord<T>[];

/**
 * How long a fetch waits for the watch's first result before it reads over HTTP. A socket that
 * cannot connect (websockets blocked on the visitor's network, the real-time endpoint down) keeps
 * retrying and reports no error, so without a limit the list would never show. A socket that does
 * connect brings the first result after one round trip on any platform (on one without live
 * queries, the watch reads it over HTTP at once: docs/LIVE-QUERIES.md, "Which kind of server"), so
 * this only has to outlast connecting and one read on a slow network.
 */
export const FIRST_RESULT_WAIT_MS = 2500;

/**
 * The feed's source for one watch: the data is whatever the watch delivered last. SWR's fetches
 * (the first one, revalidations) wait for the watch's first result instead of loading twice; only
 * when the watch cannot start (refused, real-time unavailable, nothing within FIRST_RESULT_WAIT_MS)
 * do they read over HTTP, so the list still shows.
 */
function watchedList<T extends object>(
  handler: EntityHandler<T>,
  query: LiveListQuery<T>,
): LiveFeedSource<Records<T>, WatchSnapshot<EntityRecord<T>>> {
  let latest: Records<T> | undefined;
  let watching = false;
  let failed = false;
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const resume of [...waiting]) resume();
    waiting.clear();
  };
  const { filter, sort, limit, fields } = query;
  return {
    async load() {
      const deadline = Date.now() + FIRST_RESULT_WAIT_MS;
      while (latest === undefined && watching && !failed && Date.now() < deadline) {
        await new Promise<void>((resume) => {
          const timer = setTimeout(() => {
            waiting.delete(done);
            resume();
          }, deadline - Date.now());
          const done = () => {
            clearTimeout(timer);
            resume();
          };
          waiting.add(done);
        });
      }
      return latest ?? handler.filter(filter ?? {}, sort, limit, 0, fields);
    },
    // Every snapshot is the whole result, exactly as the server has it.
    apply: (_data, snapshot) => snapshot.entities,
    subscribe(onChange, hooks: SubscriptionHooks): Unsubscribe {
      watching = true;
      failed = false;
      const stop = handler.watch(
        query,
        (snapshot) => {
          latest = snapshot.entities;
          wake();
          onChange(snapshot);
        },
        {
          ...hooks,
          onError: (error) => {
            failed = latest === undefined;
            wake();
            hooks.onError?.(error);
          },
        },
      );
      return () => {
        watching = false;
        wake();
        stop();
      };
    },
  };
}

/**
 * The records of an entity matching a query, kept equal to a fresh `filter()` by `watch()`
 * (docs/LIVE-QUERIES.md): entries and exits of the sort/limit window, resyncs after a reconnect or a
 * missed update, all without refetching here. `source` or `entityName` null/undefined: nothing is
 * loaded.
 *
 * @example
 * const { data: todos, live } = useLiveEntityList<Todo>(client, 'Todo', { filter: { done: false }, limit: 20 });
 */
export function useLiveEntityList<T extends object = EntityFields>(
  source: EntitySource | null | undefined,
  entityName: string | null | undefined,
  query: LiveListQuery<T> = {},
): LiveResponse<Records<T>> {
  const { filter, sort, limit, fields } = query;
  const options = JSON.stringify([filter ?? null, sort ?? null, limit ?? null, fields ?? null]);
  const key = source && entityName ? `live-entity-list:${idOf(source)}:${entityName}:${options}` : null;
  return useLiveFeed<Records<T>, WatchSnapshot<EntityRecord<T>>>(key, () =>
    watchedList((source as EntitySource).entity<T>(entityName as string), { filter, sort, limit, fields }),
  );
}
