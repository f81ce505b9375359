/**
 * The client's live queries (docs/LIVE-QUERIES.md): every `watch()` of a client, on its one socket.
 * Watches of the same entity and options share one query; each query is either held by the server
 * (`subscribe_query`, exact edits) or, on a platform that never answers that event, kept by the
 * client itself (live-query-fallback.ts). A query is asked again on every (re)connect, after a gap
 * in its messages and after one it cannot read; its watchers hear only results that changed.
 *
 * Until the server has answered one `subscribe_query`, nobody knows which kind it is, so each query
 * asked meanwhile also starts its fallback: the first result comes over HTTP at once on a platform
 * without live queries, instead of after LIVE_QUERY_PROBE_MS. A `subscribed` answer then stops the
 * fallback and replaces its result (docs/LIVE-QUERIES.md, "Which kind of server").
 */
import type { PlatformError } from '../../core/errors';
import type { EntityRecord, Unsubscribe, WatchOptions } from '../../core/types';
import type { SubscriptionHooks } from '../subscription-hooks';
import {
  clearProbe,
  deliver,
  newLiveQuery,
  notify,
  setJoined,
  stopFallback,
  type LiveQuery,
  type WatchCallback,
  type Watcher,
} from './live-query';
import { FallbackQuery } from './live-query-fallback';
import { applyEdit, canonicalJson, parseQueryUpdate, parseSubscribed } from './live-query-messages';
import { ROOM_LEAVE_GRACE_MS, safely } from './rooms';

/** How long a first `subscribe_query` may go unanswered before the server counts as one without live queries. */
export const LIVE_QUERY_PROBE_MS = 2000;

export interface LiveQueryDependencies {
  appId: string;
  isConnected(): boolean;
  emit(event: 'subscribe_query' | 'unsubscribe_query', payload: Record<string, unknown>): void;
  /** The entity room, for the fallback (rooms.ts reference-counts it with `subscribe()`'s). */
  subscribeToEntity: ConstructorParameters<typeof FallbackQuery>[1];
}

export class LiveQueryRegistry {
  private readonly byKey = new Map<string, LiveQuery>();
  private readonly byRoom = new Map<string, LiveQuery>();
  /** What the server is known to be: one with live queries, one without, or not known yet. */
  private mode: 'unknown' | 'server' | 'fallback' = 'unknown';
  private nextId = 0;

  constructor(
    private readonly dependencies: LiveQueryDependencies,
    private readonly probeMs = LIVE_QUERY_PROBE_MS,
  ) {}

  watch(
    entity: string,
    options: WatchOptions,
    load: () => Promise<EntityRecord[]>,
    callback: WatchCallback,
    hooks: SubscriptionHooks = {},
  ): Unsubscribe {
    const key = canonicalJson([
      entity,
      options.filter ?? null,
      options.sort ?? null,
      options.fields ?? null,
      options.limit ?? null,
    ]);
    const query = this.byKey.get(key) ?? this.create(key, entity, options, load);
    if (query.leaveTimer !== undefined) clearTimeout(query.leaveTimer);
    query.leaveTimer = undefined;
    const watcher: Watcher = { callback, hooks };
    query.watchers.add(watcher);
    if (query.entities) {
      const entities = query.entities;
      safely(() => callback({ type: 'added', entities: [...entities], timestamp: query.timestamp }));
    }
    if (query.joined) safely(() => hooks.onJoin?.());
    const refusal = query.state === 'refused' ? query.refusal : undefined;
    if (refusal) safely(() => hooks.onError?.(refusal));
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      query.watchers.delete(watcher);
      if (query.watchers.size === 0) query.leaveTimer = setTimeout(() => this.end(query), ROOM_LEAVE_GRACE_MS);
    };
  }

  /** True while any query has watchers (the socket is worth keeping open). */
  hasQueries(): boolean {
    for (const query of this.byKey.values()) if (query.watchers.size > 0) return true;
    return false;
  }

  /** Whether `room` is a live query's room (its messages come here, not to rooms.ts). */
  owns(room: string): boolean {
    return this.byRoom.has(room);
  }

  /** A (re)connect: the server knows no query; each is asked again (or left to its fallback). */
  connected(): void {
    for (const query of this.byKey.values()) {
      if (query.state === 'fallback' && this.mode === 'fallback') continue;
      stopFallback(query);
      this.ask(query);
    }
  }

  /** The connection dropped: server-held queries wait for the next one; fallbacks follow their rooms. */
  disconnected(): void {
    for (const query of this.byKey.values()) {
      if (query.state === 'fallback') continue;
      clearProbe(query);
      query.state = 'idle';
      setJoined(query, false);
    }
  }

  /** `subscribed`: a query's first (or fresh) result from a server that holds live queries. */
  subscribed(payload: unknown): void {
    const message = parseSubscribed(payload);
    const query = message && this.byRoom.get(message.room);
    if (!message || !query || query.state === 'idle') return;
    this.mode = 'server';
    clearProbe(query);
    stopFallback(query);
    if (query.shownFromHttp) {
      // The server evaluated this answer when the query arrived, perhaps before the HTTP read that
      // the watchers already saw, and a write between them would make it older than that. Asked
      // again now, after the read, its answer is at least as new as anything shown.
      return this.ask(query);
    }
    query.state = 'live';
    query.seq = 0;
    deliver(query, message.entities, message.timestamp, undefined);
    setJoined(query, true);
  }

  /** An `update_model` of a query's room: applied if it is the next one, else the query is asked again. */
  update(room: string, data: unknown): void {
    const query = this.byRoom.get(room);
    if (!query || query.state !== 'live' || !query.entities) return;
    const update = parseQueryUpdate(data);
    const next = update && update.seq === query.seq + 1 ? applyEdit(query.entities, update.edit) : null;
    if (!update || !next) return this.ask(query);
    query.seq = update.seq;
    deliver(query, next, update.timestamp, update.changeType);
  }

  /** The server refused (or ended) a query: its watchers hear why; the next connection asks again. */
  refused(room: string, error: PlatformError): void {
    const query = this.byRoom.get(room);
    if (!query) return;
    this.mode = 'server';
    clearProbe(query);
    stopFallback(query);
    query.state = 'refused';
    query.refusal = error;
    query.joined = false;
    notify(query, (hooks) => hooks.onError?.(error));
  }

  /** A problem of the whole connection (refused, URL too long, not loadable) for every watcher. */
  reportError(error: PlatformError): void {
    for (const query of this.byKey.values()) notify(query, (hooks) => hooks.onError?.(error));
  }

  /** Drops every query without telling the server (the socket is closing); the server is asked anew next time. */
  clear(): void {
    for (const query of [...this.byKey.values()]) this.forget(query);
    this.mode = 'unknown';
  }

  private create(key: string, entity: string, options: WatchOptions, load: () => Promise<EntityRecord[]>): LiveQuery {
    this.nextId += 1;
    const queryId = `q${this.nextId.toString(36)}`;
    const room = `entities:${this.dependencies.appId}:${entity}:watch:${queryId}`;
    const query = newLiveQuery({ key, entity, options, load, queryId, room });
    this.byKey.set(key, query);
    this.byRoom.set(query.room, query);
    if (this.dependencies.isConnected()) this.ask(query);
    return query;
  }

  /** Asks the server for the query (again), or hands it to the fallback on a server known to lack them. */
  private ask(query: LiveQuery): void {
    if (!this.dependencies.isConnected()) return;
    if (this.mode === 'fallback') return this.startFallback(query);
    const { filter, sort, fields, limit } = query.options;
    query.state = 'subscribing';
    query.shownFromHttp = false;
    this.dependencies.emit('subscribe_query', {
      app_id: this.dependencies.appId,
      entity_name: query.entity,
      query_id: query.queryId,
      options: { filter, sort, fields, limit },
    });
    clearProbe(query);
    if (this.mode === 'server') return;
    // Not known to hold live queries: load over HTTP at once rather than after the probe.
    this.runFallback(query);
    query.probe = setTimeout(() => {
      query.probe = undefined;
      if (query.state !== 'subscribing' || this.mode === 'server') return;
      // Nobody answered: a platform whose socket knows only rooms. Every waiting query falls back.
      this.mode = 'fallback';
      for (const waiting of this.byKey.values()) if (waiting.state === 'subscribing') this.startFallback(waiting);
    }, this.probeMs);
  }

  private startFallback(query: LiveQuery): void {
    clearProbe(query);
    query.state = 'fallback';
    this.runFallback(query);
  }

  /** Keeps the query by the client (if it is not yet), whatever its state. */
  private runFallback(query: LiveQuery): void {
    query.fallback ??= new FallbackQuery(query, this.dependencies.subscribeToEntity, {
      result: (entities, timestamp) => {
        if (deliver(query, entities, timestamp, undefined)) query.shownFromHttp = true;
      },
      hooks: {
        onJoin: () => setJoined(query, true),
        onDisconnect: () => setJoined(query, false),
        onError: (error) => notify(query, (hooks) => hooks.onError?.(error)),
      },
    });
  }

  /** The last watcher left (and the grace period passed): the server may forget the query. */
  private end(query: LiveQuery): void {
    if (query.watchers.size > 0 || this.byKey.get(query.key) !== query) return;
    const held = query.state === 'subscribing' || query.state === 'live';
    if (held && this.dependencies.isConnected())
      this.dependencies.emit('unsubscribe_query', {
        app_id: this.dependencies.appId,
        entity_name: query.entity,
        query_id: query.queryId,
      });
    this.forget(query);
  }

  private forget(query: LiveQuery): void {
    clearProbe(query);
    stopFallback(query);
    if (query.leaveTimer !== undefined) clearTimeout(query.leaveTimer);
    this.byKey.delete(query.key);
    this.byRoom.delete(query.room);
  }
}
