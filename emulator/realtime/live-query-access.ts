import type { Caller } from '../auth/caller';
import type { EmulatorContext } from '../instance/context';
import { RecordSecurity } from '../model/security';
import type { RecordScope } from '../records/scope';
import { asRefusal, checkEntityAccess, JoinRefused } from './access';
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

export class AccessCache {
  /**
   * By socket, app and entity: asked before every delivery, so a lookup builds no key (a key of
   * the three joined cost more than the answer's other work together).
   */
  private readonly answers = new Map<RealtimeSocket, Map<string, Map<string, Access | JoinRefused>>>();

  constructor(private readonly context: EmulatorContext) {}

  /** Forgets every answer: the next slice asks again. */
  clear(): void {
    this.answers.clear();
  }

  /** The socket's access to the entity, or why it has none. */
  check(socket: RealtimeSocket, appId: string, entity: string): Access | JoinRefused {
    let ofSocket = this.answers.get(socket);
    if (!ofSocket) this.answers.set(socket, (ofSocket = new Map()));
    let ofApp = ofSocket.get(appId);
    if (!ofApp) ofSocket.set(appId, (ofApp = new Map()));
    let answer = ofApp.get(entity);
    if (!answer) {
      answer = this.ask(socket, appId, entity);
      ofApp.set(entity, answer);
    }
    return answer;
  }

  private ask(socket: RealtimeSocket, appId: string, entity: string): Access | JoinRefused {
    try {
      const caller = checkEntityAccess(this.context, socket.data, appId, entity);
      const scope = asRefusal(() => scopeFor(this.context, appId, entity, caller));
      return { caller, scope, viewKey: viewKeyOf(caller, scope) };
    } catch (error) {
      if (error instanceof JoinRefused) return error;
      throw error;
    }
  }
}
