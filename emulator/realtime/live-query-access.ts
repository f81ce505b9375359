import type { Caller } from '../auth/caller';
import type { EmulatorContext } from '../instance/context';
import { RecordSecurity } from '../model/security';
import type { RecordScope } from '../records/scope';
import { asRefusal, checkEntityAccess, JoinRefused, type SocketState } from './access';
import { scopeFor } from './live-query-evaluation';
import type { RealtimeSocket } from './socket-types';

/**
 * Whether a socket may hold a live query of an entity, as of now, and with which view: asked before
 * every delivery (tokens expire or are revoked, users are demoted or deleted while the socket stays
 * open). Answers are kept for one slice of work (live-query-queue.ts): within a slice nothing is
 * written, so asking again would give the same answer.
 */

export interface Access {
  caller: Caller;
  scope: RecordScope;
  /** Whose view of the records: callers with the same key see exactly the same records and fields. */
  viewKey: string;
}

/** `all` when no rule binds this caller on the entity (views are the stored records); else the caller's own. */
export function viewKeyOf(caller: Caller, scope: RecordScope): string {
  if (scope.rules instanceof RecordSecurity && scope.rules.unrestricted) return 'all';
  return caller.kind === 'user' ? `user:${caller.account.id}` : caller.kind;
}

/** The rules and schema an entity is read with now: an object that changes when the entity files reload. */
export function definitionOf(context: EmulatorContext, appId: string, entity: string): unknown {
  const lookup = context.entities.lookup(appId, entity);
  return lookup.kind === 'defined' ? lookup.definition : lookup.kind;
}

/** A socket's last answer, kept for the slice it was asked in. */
interface Memo {
  slice: number;
  appId: string;
  entity: string;
  answer: Access | JoinRefused;
}

export class AccessCache {
  /**
   * Each socket's last answer: asked before every delivery, so a lookup builds no key and, slice
   * after slice, allocates nothing (a socket almost always asks about one entity in a slice).
   */
  private readonly memos = new WeakMap<RealtimeSocket, Memo>();
  /** Counts the slices; a memo of an earlier one is stale. */
  private slice = 0;
  /**
   * By what an answer depends on (the socket's app, owner and token, and the app and entity asked
   * about), for sockets that share them: the tabs of one user, a service's connections. A key is
   * built only when a socket's memo does not answer.
   */
  private readonly byCredentials = new Map<string, Access | JoinRefused>();

  constructor(private readonly context: EmulatorContext) {}

  /** Forgets every answer: the next slice asks again. */
  clear(): void {
    this.slice += 1;
    this.byCredentials.clear();
  }

  /** The socket's access to the entity, or why it has none. */
  check(socket: RealtimeSocket, appId: string, entity: string): Access | JoinRefused {
    const memo = this.memos.get(socket);
    if (memo && memo.slice === this.slice && memo.appId === appId && memo.entity === entity) return memo.answer;
    const answer = this.shared(socket.data, appId, entity);
    if (!memo) {
      this.memos.set(socket, { slice: this.slice, appId, entity, answer });
      return answer;
    }
    memo.slice = this.slice;
    memo.appId = appId;
    memo.entity = entity;
    memo.answer = answer;
    return answer;
  }

  private shared(state: SocketState, appId: string, entity: string): Access | JoinRefused {
    const key = JSON.stringify([state.appId, state.owner, state.token, appId, entity]);
    let answer = this.byCredentials.get(key);
    if (!answer) this.byCredentials.set(key, (answer = this.ask(state, appId, entity)));
    return answer;
  }

  private ask(state: SocketState, appId: string, entity: string): Access | JoinRefused {
    try {
      const caller = checkEntityAccess(this.context, state, appId, entity);
      const scope = asRefusal(() => scopeFor(this.context, appId, entity, caller));
      return { caller, scope, viewKey: viewKeyOf(caller, scope) };
    } catch (error) {
      if (error instanceof JoinRefused) return error;
      throw error;
    }
  }
}
