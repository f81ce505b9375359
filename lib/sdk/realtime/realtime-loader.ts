/**
 * The part of real-time that ships in the initial bundle: a stand-in that loads socket/realtime.lazy.ts
 * (and with it socket.io-client) on the first subscription or watch and forwards to it, with the
 * subscription's error/join/disconnect hooks (subscription-hooks.ts).
 */
import { PlatformError } from '../core/errors';
import type { AgentConversation, EntityChangeEvent, EntityRecord, Unsubscribe, WatchSnapshot } from '../core/types';
import type { EntityWatchQuery, Realtime, RealtimeConfig } from './realtime-types';
import type { SubscriptionHooks } from './subscription-hooks';

/** What entities and agents need from real-time; subscriptions return synchronously. */
export type RealtimeSubscriptions = Pick<
  Realtime,
  'subscribeToEntity' | 'subscribeToConversation' | 'watchEntity' | 'refreshToken' | 'close'
>;

export function createLazyRealtime(config: RealtimeConfig): RealtimeSubscriptions {
  let instance: Realtime | undefined;
  let loading: Promise<Realtime> | undefined;
  // Bumped by close(): subscriptions made before it must not start when a pending load finishes.
  let generation = 0;

  function load(): Promise<Realtime> {
    loading ??= Promise.all([
      import('./socket/realtime.lazy'),
      // Fetched in parallel with realtime.lazy.ts, which imports it lazily too: one round trip, not two.
      import('socket.io-client'),
    ]).then(([module]) => (instance = module.createRealtime(config, { PlatformError })));
    // A failed chunk load (offline, deploy in between) may be retried by the next subscription.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  }

  /** Starts a subscription now if real-time is loaded, else once it is, unless cancelled first. */
  function whenLoaded(hooks: SubscriptionHooks, start: (realtime: Realtime) => Unsubscribe): Unsubscribe {
    // Synchronous once loaded, so a join goes out before whatever the caller does next (a fetch).
    if (instance) return start(instance);
    let stop: Unsubscribe | undefined;
    let cancelled = false;
    const subscribedIn = generation;
    load().then(
      (realtime) => {
        if (!cancelled && subscribedIn === generation) stop = start(realtime);
      },
      (error: unknown) => {
        if (cancelled) return;
        // The code of RealtimeErrorCodes.unavailable, spelled out so socket/parse.ts stays out of this bundle.
        const failure = new PlatformError('Could not load the real-time client', {
          code: 'REALTIME_UNAVAILABLE',
          cause: error,
        });
        if (hooks.onError) hooks.onError(failure);
        else console.error('[platform-sdk] could not load real-time:', error);
      },
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }

  return {
    subscribeToEntity<T extends object>(
      entityName: string,
      callback: (event: EntityChangeEvent<T>) => void,
      hooks: SubscriptionHooks = {},
    ) {
      return whenLoaded(hooks, (realtime) => realtime.subscribeToEntity<T>(entityName, callback, hooks));
    },
    subscribeToConversation(
      conversationId: string,
      callback: (conversation: AgentConversation) => void,
      hooks: SubscriptionHooks = {},
      initial: Promise<AgentConversation>,
    ) {
      return whenLoaded(hooks, (realtime) =>
        realtime.subscribeToConversation(conversationId, callback, hooks, initial),
      );
    },
    watchEntity<T extends object>(
      entityName: string,
      query: EntityWatchQuery<T>,
      callback: (snapshot: WatchSnapshot<EntityRecord<T>>) => void,
      hooks: SubscriptionHooks = {},
    ) {
      return whenLoaded(hooks, (realtime) => realtime.watchEntity<T>(entityName, query, callback, hooks));
    },
    refreshToken: () => instance?.refreshToken(),
    close: () => {
      generation += 1;
      instance?.close();
    },
  };
}
