import type { Caller } from '../auth/caller';
import { DomainError } from '../core/errors';
import { USER_ENTITY, type EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { DEFAULT_QUERY_BUDGET_MS, withOwnQueryBudget } from '../query/budget';
import type { RecordScope } from '../records/scope';
import { asRefusal, checkEntityAccess, currentCaller, JoinRefused, refusalOf } from './access';
import { requiredEquality } from './live-query-candidates';
import { changeType, diffResults } from './live-query-diff';
import { evaluateQuery, readableFor, scopeFor, viewFor } from './live-query-evaluation';
import { groupSubscriptions, SubscriptionIndex, type Subscription } from './live-query-index';
import { parseLiveQueryRequest, parseQueryAddress, type QueryAddress } from './live-query-request';
import type { RealtimeSocket } from './socket-types';

/**
 * Server-side live queries (docs/LIVE-QUERIES.md): `subscribe_query` answers with the query's
 * result, then every write that changes that result, as the subscriber may see it now, becomes one
 * `update_model` with the exact edit. The publish step of every record write calls
 * {@link LiveQueries.entityChanged}; the work runs right after (setImmediate), outside the writer's
 * request and its query budget, so a write never waits for its watchers and a batch is one pass.
 */

export const MAX_QUERIES_PER_SOCKET = 1000;

export type WriteType = 'create' | 'update' | 'delete';

interface PendingWrite {
  appId: string;
  entity: string;
  type: WriteType;
  record: EntityRecord;
}

/** What caused a new result: a write to the entity, or a change of who the subscriber is. */
interface Cause {
  type: WriteType | 'resync';
  record: EntityRecord | undefined;
}

export function watchRoom({ appId, entity, queryId }: QueryAddress): string {
  return `entities:${appId}:${entity}:watch:${queryId}`;
}

function isRefusal(error: unknown): error is JoinRefused | DomainError {
  return error instanceof JoinRefused || error instanceof DomainError;
}

export class LiveQueries {
  private readonly index = new SubscriptionIndex();
  private pending: PendingWrite[] = [];
  private flushScheduled = false;

  constructor(
    private readonly context: EmulatorContext,
    private readonly findSocket: (id: string) => RealtimeSocket | undefined,
  ) {}

  /** `subscribe_query`: answers `subscribed` with the first result, or `error` naming the room. */
  subscribe(socket: RealtimeSocket, payload: unknown): void {
    let room: string | null = null;
    try {
      const address = parseQueryAddress(payload);
      room = watchRoom(address);
      const request = parseLiveQueryRequest(payload, address);
      const { appId, entity, queryId } = request;
      const caller = checkEntityAccess(this.context, socket.data, appId, entity);
      const scope = asRefusal(() => scopeFor(this.context, appId, entity, caller));
      // The same query id again replaces the subscription: that is how a client resyncs.
      const previous = this.index.find(socket.id, queryId);
      if (previous) this.index.drop(previous);
      else if (this.index.countOf(socket.id) >= MAX_QUERIES_PER_SOCKET)
        throw new JoinRefused(`A socket may hold at most ${MAX_QUERIES_PER_SOCKET} live queries`, 'too_many_queries');
      const rows = evaluateQuery(
        request.query,
        asRefusal(() => readableFor(this.context, scope)),
      );
      const ids = new Set(rows.map((row) => row.id));
      this.index.add({
        socketId: socket.id,
        request,
        room,
        seq: 0,
        rows,
        ids,
        equality: requiredEquality(request.options.filter),
      });
      socket.emit('subscribed', {
        room,
        entity_name: entity,
        query_id: queryId,
        options: request.options,
        seq: 0,
        entities: rows.map((row) => row.record),
        timestamp: this.context.nowIso(),
      });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      socket.emit('error', { ...refusalOf(error), room });
    }
  }

  /** `unsubscribe_query`: forgets the query and confirms with `unsubscribed`. */
  unsubscribe(socket: RealtimeSocket, payload: unknown): void {
    let address: QueryAddress;
    try {
      address = parseQueryAddress(payload);
    } catch (error) {
      if (!(error instanceof JoinRefused)) throw error;
      socket.emit('error', { ...refusalOf(error), room: null });
      return;
    }
    const room = watchRoom(address);
    const subscription = this.index.find(socket.id, address.queryId);
    if (subscription?.room === room) this.index.drop(subscription);
    socket.emit('unsubscribed', { room, entity_name: address.entity, query_id: address.queryId });
  }

  /** A socket went away: its queries go with it. */
  dropSocket(socketId: string): void {
    for (const subscription of this.index.ofSocket(socketId)) this.index.drop(subscription);
  }

  /** The publish step of a record write: queued, evaluated right after the write's own work. */
  entityChanged(appId: string, entity: string, type: WriteType, record: EntityRecord): void {
    // A change of a user may change what that user's rules let it see, in every entity.
    const relevant = this.index.watches(appId, entity) || (entity === USER_ENTITY && this.index.count() > 0);
    if (!relevant) return;
    this.pending.push({ appId, entity, type, record });
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** The sockets holding the live query of this room (test tools address watch rooms like rooms). */
  socketsIn(room: string): string[] {
    return this.index
      .socketIds()
      .filter((id) => this.index.ofSocket(id).some((subscription) => subscription.room === room));
  }

  /** Live queries held by all sockets (for tests and the benchmark). */
  count(): number {
    return this.index.count();
  }

  /**
   * Runs outside any request (setImmediate), so nothing above would catch a failure: each change,
   * and each socket's share of it, is isolated, so a failing query is logged and every other query
   * still gets its update (and the emulator stays up).
   */
  private flush(): void {
    this.flushScheduled = false;
    for (const change of this.pending.splice(0)) {
      const what = `${change.type} of ${change.entity} ${change.record.id}`;
      this.isolated(what, () => {
        const { appId, entity, record } = change;
        const subscriptions = this.index.candidates(appId, entity, record, change.type === 'delete');
        for (const [socketId, own] of groupSubscriptions(subscriptions, 'socket'))
          this.isolated(`${what} for socket ${socketId}`, () => this.applyWrite(socketId, own, change));
        if (entity === USER_ENTITY) this.resyncUser(appId, record.id);
      });
    }
  }

  private isolated(what: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.context.log(
        `live queries: the ${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }

  /** One socket's queries of the written entity: those the write may affect are evaluated again. */
  private applyWrite(socketId: string, subscriptions: Subscription[], change: PendingWrite): void {
    const socket = this.findSocket(socketId);
    if (!socket) return void subscriptions.forEach((subscription) => this.index.drop(subscription));
    const { appId, entity, record } = change;
    const scope = this.scopeOf(socket, subscriptions, appId, entity);
    if (!scope) return;
    // The record as this subscriber sees it, read once for all of its queries.
    let view: EntityRecord | null | undefined;
    const visible = (subscription: Subscription): EntityRecord | null => {
      if (view === undefined) view = this.guarded(socket, [subscription], () => viewFor(scope, record));
      return view ?? null;
    };
    // One record against each query: one clock for all of them (query/budget.ts).
    const affected = withOwnQueryBudget(DEFAULT_QUERY_BUDGET_MS, () =>
      subscriptions.filter((subscription) => {
        // A record in the result may leave it; any other only matters if the subscriber now sees it match.
        if (subscription.ids.has(record.id)) return true;
        const seen = change.type === 'delete' ? null : visible(subscription);
        if (!seen) return false;
        return this.guarded(socket, [subscription], () => subscription.request.query.filter(seen)) === true;
      }),
    );
    this.refreshAll(socket, affected, scope, change);
  }

  /** Every query of the sockets signed in as this user, evaluated again: its rules may see differently now. */
  private resyncUser(appId: string, userId: string): void {
    for (const socketId of this.index.socketIds()) {
      const socket = this.findSocket(socketId);
      if (!socket || socket.data.appId !== appId) continue;
      let caller: Caller | undefined;
      try {
        caller = currentCaller(this.context, socket.data);
      } catch {
        // No longer valid (this very user deleted, say): callerFor below ends its queries.
        caller = undefined;
      }
      if (caller && (caller.kind !== 'user' || caller.account.id !== userId)) continue;
      this.isolated(`resync of user ${userId} for socket ${socketId}`, () => {
        for (const own of groupSubscriptions(this.index.ofSocket(socketId), 'entity').values()) {
          const { entity } = (own[0] as Subscription).request;
          const scope = this.scopeOf(socket, own, appId, entity);
          if (scope) this.refreshAll(socket, own, scope, { type: 'resync', record: undefined });
        }
      });
    }
  }

  /** Evaluates each query again over one reading of the records and sends what changed. */
  private refreshAll(socket: RealtimeSocket, subscriptions: Subscription[], scope: RecordScope, cause: Cause): void {
    if (subscriptions.length === 0) return;
    const readable = this.guarded(socket, subscriptions, () => readableFor(this.context, scope));
    if (!readable) return;
    for (const subscription of subscriptions) this.refresh(socket, subscription, readable, cause);
  }

  /**
   * The socket's caller's scope on the entity, if it may still follow it; otherwise its queries end
   * with an error (and an expired or revoked token ends the socket, as for rooms: socket.ts evictStale).
   */
  private scopeOf(
    socket: RealtimeSocket,
    subscriptions: Subscription[],
    appId: string,
    entity: string,
  ): RecordScope | undefined {
    try {
      const caller = checkEntityAccess(this.context, socket.data, appId, entity);
      return asRefusal(() => scopeFor(this.context, appId, entity, caller));
    } catch (error) {
      if (!(error instanceof JoinRefused)) throw error;
      this.end(socket, subscriptions, error);
      if (error.code === 'invalid_token') socket.disconnect(true);
      return undefined;
    }
  }

  /** Evaluates the query again and sends the edit, if the result changed. */
  private refresh(
    socket: RealtimeSocket,
    subscription: Subscription,
    readable: readonly EntityRecord[],
    cause: Cause,
  ): void {
    const after = this.guarded(socket, [subscription], () => evaluateQuery(subscription.request.query, readable));
    const edit = after && diffResults(subscription.rows, after);
    if (!after || !edit) return;
    const before = subscription.ids;
    subscription.rows = after;
    subscription.ids = new Set(after.map((row) => row.id));
    this.index.resulted(subscription, before);
    subscription.seq += 1;
    const id = cause.record?.id;
    const data = id === undefined ? undefined : after.find((row) => row.id === id)?.record;
    const message = {
      type: cause.type,
      change_type: changeType(before, subscription.ids, id, edit),
      ...(id === undefined ? {} : { id }),
      ...(data === undefined ? {} : { data }),
      timestamp: this.context.nowIso(),
      query_id: subscription.request.queryId,
      seq: subscription.seq,
      ...edit,
    };
    socket.emit('update_model', { room: subscription.room, data: JSON.stringify(message) });
  }

  /** Runs `work` for these queries; a refusal or a failed evaluation ends them with an error instead. */
  private guarded<T>(socket: RealtimeSocket, subscriptions: Subscription[], work: () => T): T | undefined {
    try {
      return work();
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.end(socket, subscriptions, error);
      return undefined;
    }
  }

  private end(socket: RealtimeSocket, subscriptions: Subscription[], error: JoinRefused | DomainError): void {
    for (const subscription of subscriptions) {
      if (this.index.drop(subscription)) socket.emit('error', { ...refusalOf(error), room: subscription.room });
    }
  }
}
