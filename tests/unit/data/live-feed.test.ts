/**
 * The LiveFeed bookkeeping on its own, with a scripted source and a cache that stands in for SWR
 * (it stores what the feed's fetch returns), so the races can be staged exactly: changes during a
 * fetch, failed fetches, refetch coalescing, joins before and after a fetch, holders and states.
 */
import { LiveFeed, type FeedCache, type LiveFeedSource } from '@/lib/data/live-feed';
import { PlatformError, type SubscriptionHooks } from '@/lib/sdk';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Lets the feed finish what a settled fetch started: its bookkeeping runs in promise callbacks and
 * then schedules a zero-delay timer. A first timer runs only after those callbacks (so that timer
 * exists by then); the second, longer one then fires after it, however slow the machine. A plain
 * `sleep(5)` started before the callbacks could fire first on a loaded machine (CI run 13).
 */
async function settle(): Promise<void> {
  await sleep(0);
  await sleep(5);
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

interface FakeCache extends FeedCache<number[]> {
  data: number[] | undefined;
  writes: number;
  revalidations: number;
}

/** Data: a list of numbers. A change appends its number; a negative change cannot be applied. */
function setup() {
  const loads: Deferred<number[]>[] = [];
  let push: (change: number) => void = () => undefined;
  let hooks: SubscriptionHooks = {};
  const unsubscribe = jest.fn();
  const subscribe = jest.fn((onChange: (change: number) => void, given: SubscriptionHooks) => {
    push = onChange;
    hooks = given;
    return unsubscribe;
  });
  const source: LiveFeedSource<number[], number> = {
    load: () => {
      const load = deferred<number[]>();
      loads.push(load);
      return load.promise;
    },
    apply: (data, change) => (change < 0 ? null : [...data, change]),
    subscribe,
  };
  const cache: FakeCache = {
    data: undefined,
    writes: 0,
    revalidations: 0,
    read: () => cache.data,
    write: (data: number[]) => {
      cache.writes += 1;
      cache.data = data;
    },
    // Like SWR: run the fetcher and store its result (failures keep the old data).
    revalidate: () => {
      cache.revalidations += 1;
      void runFetch();
    },
  };
  const feed = new LiveFeed(source, cache);
  async function runFetch(): Promise<void> {
    try {
      cache.data = await feed.fetch();
    } catch {
      // SWR keeps the previous data and reports the error.
    }
  }
  return {
    feed,
    cache,
    loads,
    runFetch,
    unsubscribe,
    subscribe,
    push: (change: number) => push(change),
    hooks: () => hooks,
  };
}

it('writes a change straight into the cache when no fetch is running', async () => {
  const { feed, cache, loads, runFetch, push } = setup();
  feed.retain();
  const fetching = runFetch();
  loads[0]?.resolve([1]);
  await fetching;
  push(2);
  expect(cache.data).toEqual([1, 2]);
  expect(cache.writes).toBe(1);
});

it('holds changes back during a fetch and replays them onto its result', async () => {
  const { feed, cache, loads, runFetch, push } = setup();
  feed.retain();
  cache.data = [0];
  const fetching = runFetch();
  push(5);
  push(6);
  // Writing now would make SWR throw the fetch away.
  expect(cache.writes).toBe(0);
  loads[0]?.resolve([0, 1]);
  await fetching;
  expect(cache.data).toEqual([0, 1, 5, 6]);
});

it('applies the changes of a failed fetch to the cached data afterwards', async () => {
  const { feed, cache, loads, runFetch, push } = setup();
  feed.retain();
  cache.data = [0];
  const fetching = runFetch();
  push(7);
  loads[0]?.reject(new Error('offline'));
  await fetching;
  await settle();
  expect(cache.data).toEqual([0, 7]);
});

it('turns changes it cannot apply into one refetch, never overlapping a running fetch', async () => {
  const { feed, cache, loads, push } = setup();
  feed.retain();
  cache.data = [];
  push(-1);
  expect(cache.revalidations).toBe(1);
  // A storm of changes while that refetch runs...
  push(-2);
  push(-3);
  push(-4);
  expect(loads).toHaveLength(1);
  loads[0]?.resolve([1]);
  await settle();
  // ...costs exactly one more request, after the first one ended.
  expect(cache.revalidations).toBe(2);
  expect(loads).toHaveLength(2);
  loads[1]?.resolve([1, 2]);
  await settle();
  expect(cache.data).toEqual([1, 2]);
  expect(cache.revalidations).toBe(2);
});

it('refetches after a join unless a fetch started after it', async () => {
  const { feed, cache, loads, runFetch, hooks } = setup();
  feed.retain();
  // A fetch from before the join cannot contain what happened before the room was joined.
  const first = runFetch();
  hooks().onJoin?.();
  loads[0]?.resolve([1]);
  await first;
  await settle();
  expect(cache.revalidations).toBe(1);
  loads[1]?.resolve([1]);
  await settle();

  // A join immediately followed by a fetch (a component mounting while the socket is up) is covered.
  hooks().onJoin?.();
  const covering = runFetch();
  loads[2]?.resolve([1]);
  await covering;
  await settle();
  expect(cache.revalidations).toBe(1);
});

it('subscribes once for several holders and stops only after the last one is gone for a while', async () => {
  const { feed, subscribe, unsubscribe } = setup();
  const releaseA = feed.retain();
  const releaseB = feed.retain();
  expect(subscribe).toHaveBeenCalledTimes(1);
  releaseA();
  releaseA();
  releaseB();
  // A remount right away keeps the subscription.
  const releaseC = feed.retain();
  await sleep(300);
  expect(unsubscribe).not.toHaveBeenCalled();
  expect(subscribe).toHaveBeenCalledTimes(1);
  releaseC();
  await sleep(300);
  expect(unsubscribe).toHaveBeenCalledTimes(1);
  feed.retain();
  expect(subscribe).toHaveBeenCalledTimes(2);
});

it('reports its state: connecting, live, reconnecting, failed; lost updates refetch without changing it', async () => {
  const { feed, cache, hooks } = setup();
  const seen: string[] = [];
  feed.subscribeState(() =>
    seen.push(`${feed.getState().status}${feed.getState().error ? `:${feed.getState().error?.code}` : ''}`),
  );
  feed.retain();
  cache.data = [];
  expect(feed.getState().status).toBe('connecting');
  hooks().onJoin?.();
  hooks().onError?.(new PlatformError('bad update', { code: 'MALFORMED_UPDATE' }));
  expect(cache.revalidations).toBe(1);
  hooks().onDisconnect?.();
  hooks().onJoin?.();
  hooks().onError?.(new PlatformError('Only admins', { code: 'admin_required' }));
  expect(seen).toEqual([
    'live',
    'live:MALFORMED_UPDATE',
    'reconnecting:MALFORMED_UPDATE',
    'live',
    'failed:admin_required',
  ]);
});
