/**
 * Shared pieces of the real-time suites (the emulator and its clients come from
 * tests/support/emulator-clients.ts): probes that record what a subscription saw (events, errors,
 * joins, disconnects) with timestamps, polling, and the emulator's room tools.
 */
import type { PlatformError } from '@/lib/sdk/core/errors';
import type { Unsubscribe } from '@/lib/sdk/core/types';
import type { SubscriptionHooks } from '@/lib/sdk/realtime/subscription-hooks';
import { APP } from '@/tests/support/emulator-clients';

export interface Probe<T> {
  values: T[];
  errors: PlatformError[];
  /** performance.now() of each onJoin. */
  joins: number[];
  /** performance.now() of each onDisconnect. */
  disconnects: number[];
  stop: Unsubscribe;
}

/**
 * Subscribes through `subscribe` (an SDK method taking a callback and hooks; pass both on) and
 * records everything it reports.
 */
export function probe<T>(subscribe: (callback: (value: T) => void, hooks: SubscriptionHooks) => Unsubscribe): Probe<T> {
  const result: Omit<Probe<T>, 'stop'> = { values: [], errors: [], joins: [], disconnects: [] };
  const stop = subscribe((value: T) => result.values.push(value), {
    onError: (error) => result.errors.push(error),
    onJoin: () => result.joins.push(performance.now()),
    onDisconnect: () => result.disconnects.push(performance.now()),
  });
  return { ...result, stop };
}

export { eventually } from '@/tests/support/waits';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Emits a raw event into a room through the emulator's test tool; resolves with the room's size. */
export async function emitToRoom(url: string, room: string, event: string, payload: unknown): Promise<number> {
  const response = await fetch(`${url}/api/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ event, payload }),
  });
  if (!response.ok) throw new Error(`Emitting into ${room} failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { delivered: number }).delivered;
}

export const entityRoomOf = (entity: string, appId: string = APP) => `entities:${appId}:${entity}`;
