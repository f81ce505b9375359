/**
 * One live query of a client and its watchers (live-queries.ts keeps them all and speaks to the
 * server about them): its state, and what its watchers hear: results that changed, joins, errors.
 */
import type { PlatformError } from '../../core/errors';
import type { EntityRecord, WatchOptions, WatchSnapshot } from '../../core/types';
import type { SubscriptionHooks } from '../subscription-hooks';
import type { FallbackQuery, FallbackSource } from './live-query-fallback';
import { changeBetween } from './live-query-messages';
import { safely } from './rooms';

export type WatchCallback = (snapshot: WatchSnapshot<EntityRecord>) => void;
export interface Watcher {
  callback: WatchCallback;
  hooks: SubscriptionHooks;
}

/** idle: not asked on this connection; subscribing: asked, no answer yet; live: server-held; fallback: client-held. */
export type QueryState = 'idle' | 'subscribing' | 'live' | 'refused' | 'fallback';

export interface LiveQuery extends FallbackSource {
  key: string;
  queryId: string;
  room: string;
  watchers: Set<Watcher>;
  state: QueryState;
  seq: number;
  entities: EntityRecord[] | undefined;
  timestamp: string;
  probe: ReturnType<typeof setTimeout> | undefined;
  /** Why the server refused the query (told to watchers who come later too). */
  refusal: PlatformError | undefined;
  fallback: FallbackQuery | undefined;
  /** Watchers were told `onJoin` and no `onDisconnect` since (a fallback during the probe joins first). */
  joined: boolean;
  /** A fallback result reached the watchers since the query was last asked: the answer may be older. */
  shownFromHttp: boolean;
  leaveTimer: ReturnType<typeof setTimeout> | undefined;
}

/** What names a query: its entity and options, its id on this socket and its room. */
export interface LiveQueryIdentity {
  key: string;
  entity: string;
  options: WatchOptions;
  load: () => Promise<EntityRecord[]>;
  queryId: string;
  room: string;
}

/** A query nobody has asked the server for yet. */
export function newLiveQuery(identity: LiveQueryIdentity): LiveQuery {
  return {
    ...identity,
    watchers: new Set(),
    state: 'idle',
    seq: 0,
    entities: undefined,
    timestamp: '',
    probe: undefined,
    refusal: undefined,
    fallback: undefined,
    shownFromHttp: false,
    joined: false,
    leaveTimer: undefined,
  };
}

function sameRecords(left: readonly EntityRecord[], right: readonly EntityRecord[]): boolean {
  return left.length === right.length && JSON.stringify(left) === JSON.stringify(right);
}

/** Hands a result to every watcher, unless it equals the one they have; true if it did. */
export function deliver(
  query: LiveQuery,
  entities: EntityRecord[],
  timestamp: string,
  changeType: WatchSnapshot['type'] | undefined,
): boolean {
  // An edit always changes the result (the server sends none otherwise); a fresh result (a resync,
  // a fallback load) is compared as text, only then: a copy kept per query would double its memory.
  if (query.entities && changeType === undefined && sameRecords(query.entities, entities)) return false;
  const type = query.entities ? (changeType ?? changeBetween(query.entities, entities)) : 'added';
  query.entities = entities;
  query.timestamp = timestamp;
  for (const { callback } of [...query.watchers]) safely(() => callback({ type, entities: [...entities], timestamp }));
  return true;
}

export function notify(query: LiveQuery, action: (hooks: SubscriptionHooks) => void): void {
  for (const { hooks } of [...query.watchers]) safely(() => action(hooks));
}

/** Tells watchers the query is followed (again) or no longer, once per change. */
export function setJoined(query: LiveQuery, joined: boolean): void {
  if (query.joined === joined) return;
  query.joined = joined;
  notify(query, (hooks) => (joined ? hooks.onJoin?.() : hooks.onDisconnect?.()));
}

export function clearProbe(query: LiveQuery): void {
  if (query.probe !== undefined) clearTimeout(query.probe);
  query.probe = undefined;
}

export function stopFallback(query: LiveQuery): void {
  query.fallback?.stop();
  query.fallback = undefined;
}
