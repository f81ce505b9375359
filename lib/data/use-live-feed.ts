'use client';

import { useEffect, useLayoutEffect, useSyncExternalStore } from 'react';
import { useSWRConfig, type SWRResponse } from 'swr';

import { hasWindow } from '@/lib/util';

import { CONNECTING, LiveFeed, type LiveFeedSource, type LiveState } from './live-feed';
import { usePlatformQuery } from './use-platform-query';

/** An SWR response plus the state of its real-time subscription. */
export type LiveResponse<Data> = SWRResponse<Data> & { live: LiveState };

type SwrCache = ReturnType<typeof useSWRConfig>['cache'];

// One feed per SWR cache and key (tests give each render a fresh cache; the site has one).
const feedsByCache = new WeakMap<SwrCache, Map<string, LiveFeed<unknown, unknown>>>();

// Layout effects do not run during server rendering (and React warns about them there).
const useClientLayoutEffect = hasWindow() ? useLayoutEffect : useEffect;

const ignoreState = () => () => undefined;
const connecting = () => CONNECTING;
const neverCalled = (): Promise<never> => Promise.reject(new Error('A live query without a key does not fetch'));

/** Ids for objects (clients), so a cache key can tell two clients apart. */
const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

export function idOf(value: object): number {
  let id = objectIds.get(value);
  if (id === undefined) {
    id = nextObjectId;
    nextObjectId += 1;
    objectIds.set(value, id);
  }
  return id;
}

/**
 * SWR data kept live by a {@link LiveFeed}. `key` null disables it (no fetch, no subscription).
 * `makeSource` runs once per cache and key: everything it closes over must be part of the key.
 */
export function useLiveFeed<Data, Change>(
  key: string | null,
  makeSource: () => LiveFeedSource<Data, Change>,
): LiveResponse<Data> {
  const { cache, mutate } = useSWRConfig();
  let feed: LiveFeed<Data, Change> | undefined;
  if (key !== null) {
    let feeds = feedsByCache.get(cache);
    if (!feeds) {
      feeds = new Map();
      feedsByCache.set(cache, feeds);
    }
    feed = feeds.get(key) as LiveFeed<Data, Change> | undefined;
    if (!feed) {
      feed = new LiveFeed<Data, Change>(makeSource(), {
        read: () => cache.get(key)?.data as Data | undefined,
        write: (data) => void mutate(key, data, { revalidate: false }),
        revalidate: () => void mutate(key),
      });
      feeds.set(key, feed as LiveFeed<unknown, unknown>);
    }
  }
  // Declared before the query so the room is joined (when the socket is up) before SWR's first fetch
  // starts: that fetch then covers the join and no second one is needed.
  useClientLayoutEffect(() => feed?.retain(), [feed]);
  const live = useSyncExternalStore(feed?.subscribeState ?? ignoreState, feed?.getState ?? connecting, connecting);
  const response = usePlatformQuery<Data>(key, feed?.fetch ?? neverCalled);
  return Object.assign(response, { live });
}
