/**
 * The part of real-time that ships in the initial bundle: a stand-in that loads realtime.ts (and with
 * it socket.io-client) on the first subscription and forwards to it.
 */
import type { Realtime, RealtimeConfig } from './realtime';
import type { AgentConversation, EntityChangeEvent, Unsubscribe } from './types';

/** What entities and agents need from real-time; subscriptions return synchronously. */
export type RealtimeSubscriptions = Pick<Realtime, 'subscribeToEntity' | 'subscribeToConversation' | 'refreshToken' | 'close'>;

export function createLazyRealtime(config: RealtimeConfig): RealtimeSubscriptions {
  let instance: Realtime | undefined;
  let loading: Promise<Realtime> | undefined;
  // Bumped by close(): subscriptions made before it must not start when a pending load finishes.
  let generation = 0;

  function load(): Promise<Realtime> {
    loading ??= Promise.all([
      import('./realtime'),
      // Fetched in parallel with realtime.ts, which imports it lazily too: one round trip, not two.
      import('socket.io-client'),
    ]).then(([module]) => (instance = module.createRealtime(config)));
    // A failed chunk load (offline, deploy in between) may be retried by the next subscription.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  }

  /** Starts a subscription once real-time is loaded, unless it was cancelled first. */
  function whenLoaded(start: (realtime: Realtime) => Unsubscribe): Unsubscribe {
    let stop: Unsubscribe | undefined;
    let cancelled = false;
    const subscribedIn = generation;
    load().then(
      (realtime) => {
        if (!cancelled && subscribedIn === generation) stop = start(realtime);
      },
      (error: unknown) => console.error('[platform-sdk] could not load real-time:', error),
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }

  return {
    subscribeToEntity<T extends object>(entityName: string, callback: (event: EntityChangeEvent<T>) => void) {
      return whenLoaded((realtime) => realtime.subscribeToEntity<T>(entityName, callback));
    },
    subscribeToConversation(conversationId: string, callback: (conversation: AgentConversation) => void) {
      return whenLoaded((realtime) => realtime.subscribeToConversation(conversationId, callback));
    },
    refreshToken: () => instance?.refreshToken(),
    close: () => {
      generation += 1;
      instance?.close();
    },
  };
}
