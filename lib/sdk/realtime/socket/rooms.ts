/**
 * Reference-counted socket.io rooms of one socket.
 *
 * The first subscriber of a room joins it and the last one leaves it, after a short grace period so
 * that React unmounting and remounting a component (StrictMode, route changes, list re-keys) does not
 * turn into leave+join churn on the server. A join is sent only while connected and only once per
 * connection: the server forgets rooms when a connection drops, so every (re)connect joins each room
 * that still has subscribers exactly once. Joins and leaves are never queued while disconnected
 * (socket.io would replay a queued join after the reconnect join, doubling it).
 */
import type { PlatformError } from '../../core/errors';
import type { SubscriptionHooks } from '../subscription-hooks';

/** How long an unsubscribed room stays joined in case someone subscribes again. */
export const ROOM_LEAVE_GRACE_MS = 250;

export interface RoomSubscriber {
  /** The room's raw `update_model` data. May throw; the registry contains it. */
  onMessage: (data: unknown) => void;
  hooks: SubscriptionHooks;
}

/** What the registry needs from the socket. */
export interface RoomSocket {
  isConnected(): boolean;
  join(room: string): void;
  leave(room: string): void;
}

type RoomStatus = 'idle' | 'joined' | 'refused';

interface RoomState {
  subscribers: Set<RoomSubscriber>;
  /** idle: not joined on this connection; joined: join sent; refused: the server refused the join. */
  status: RoomStatus;
  refusal: PlatformError | undefined;
  leaveTimer: ReturnType<typeof setTimeout> | undefined;
}

/** Calls a subscriber's code; its failure must not stop the others or escape into socket.io. */
export function safely(action: () => void): void {
  try {
    action();
  } catch (error) {
    console.error('[platform-sdk] real-time listener failed:', error);
  }
}

export class RoomRegistry {
  private readonly rooms = new Map<string, RoomState>();

  constructor(
    private readonly socket: RoomSocket,
    private readonly graceMs: number = ROOM_LEAVE_GRACE_MS,
  ) {}

  /** Adds a subscriber, joining the room if needed. Returns an idempotent unsubscribe. */
  add(room: string, subscriber: RoomSubscriber): () => void {
    let state = this.rooms.get(room);
    if (!state) {
      state = { subscribers: new Set(), status: 'idle', refusal: undefined, leaveTimer: undefined };
      this.rooms.set(room, state);
    }
    if (state.leaveTimer !== undefined) {
      clearTimeout(state.leaveTimer);
      state.leaveTimer = undefined;
    }
    state.subscribers.add(subscriber);
    if (state.status === 'joined') {
      safely(() => subscriber.hooks.onJoin?.());
    } else if (state.status === 'refused') {
      const refusal = state.refusal;
      if (refusal) safely(() => subscriber.hooks.onError?.(refusal));
    } else if (this.socket.isConnected()) {
      this.join(room, state);
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.remove(room, subscriber);
    };
  }

  private remove(room: string, subscriber: RoomSubscriber): void {
    const state = this.rooms.get(room);
    if (!state?.subscribers.delete(subscriber) || state.subscribers.size > 0) return;
    if (state.status !== 'joined') {
      // Never joined on this connection (or refused): the server has nothing to forget.
      this.rooms.delete(room);
      return;
    }
    state.leaveTimer = setTimeout(() => {
      state.leaveTimer = undefined;
      if (state.subscribers.size > 0 || this.rooms.get(room) !== state) return;
      this.rooms.delete(room);
      if (state.status === 'joined' && this.socket.isConnected()) this.socket.leave(room);
    }, this.graceMs);
  }

  private join(room: string, state: RoomState): void {
    state.status = 'joined';
    state.refusal = undefined;
    this.socket.join(room);
    for (const subscriber of [...state.subscribers]) safely(() => subscriber.hooks.onJoin?.());
  }

  /** A (re)connect: the server knows no rooms yet. Joins each room with subscribers once. */
  connected(): void {
    for (const [room, state] of [...this.rooms]) {
      if (state.subscribers.size === 0) {
        this.forget(room, state);
      } else {
        state.status = 'idle';
        this.join(room, state);
      }
    }
  }

  /** The connection dropped: nothing is joined any more; rooms waiting to be left are simply forgotten. */
  disconnected(): void {
    for (const [room, state] of [...this.rooms]) {
      const wasJoined = state.status === 'joined';
      state.status = 'idle';
      state.refusal = undefined;
      if (state.subscribers.size === 0) this.forget(room, state);
      else if (wasJoined)
        for (const subscriber of [...state.subscribers]) safely(() => subscriber.hooks.onDisconnect?.());
    }
  }

  private forget(room: string, state: RoomState): void {
    if (state.leaveTimer !== undefined) clearTimeout(state.leaveTimer);
    this.rooms.delete(room);
  }

  /** Hands a room's update to each of its subscribers; updates for rooms without subscribers are dropped. */
  dispatch(room: string, data: unknown): void {
    const state = this.rooms.get(room);
    if (!state) return;
    for (const subscriber of [...state.subscribers]) safely(() => subscriber.onMessage(data));
  }

  /** Reports an error to one room's subscribers, or to every subscriber when `room` is undefined. */
  reportError(room: string | undefined, error: PlatformError): void {
    const states =
      room === undefined ? [...this.rooms.values()] : [this.rooms.get(room)].filter((state) => state !== undefined);
    for (const state of states) {
      for (const subscriber of [...state.subscribers]) safely(() => subscriber.hooks.onError?.(error));
    }
  }

  /** The server refused (or dropped) a room: it is not live until the next connection joins it again. */
  refuse(room: string, error: PlatformError): void {
    const state = this.rooms.get(room);
    if (!state) return;
    state.status = 'refused';
    state.refusal = error;
    this.reportError(room, error);
  }

  /** True while any room has subscribers (the socket is worth keeping open). */
  hasSubscribers(): boolean {
    for (const state of this.rooms.values()) if (state.subscribers.size > 0) return true;
    return false;
  }

  /** Drops every room and pending leave without telling the server (the socket is closing). */
  clear(): void {
    for (const [room, state] of [...this.rooms]) this.forget(room, state);
  }
}
