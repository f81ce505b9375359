import { callerFromToken, checkAppAccess, maySeeConversation, type Caller } from '../auth/caller';
import { isEntityName } from '../core/entity-name';
import { DomainError } from '../core/errors';
import { USER_ENTITY, type EntityRecord } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { recordRules } from '../model/rules';
import { mayFollowUsers } from '../model/user-security';

/**
 * Who a socket is and what it may follow, decided again before every delivery: tokens expire or are
 * revoked, users are demoted or deleted, while the socket stays open. Rooms (`join`) and live
 * queries (`subscribe_query`) ask the same checks as the HTTP API.
 */

export interface SocketState {
  appId: string;
  token: string | null;
  /**
   * Who the socket belongs to, for budgets and fair turns (live-query-budget.ts): `user:{id}` for a
   * signed-in user, `service` for the app's service role, `anonymous:{socket id}` for a visitor.
   */
  owner: string;
}

/** A refused join or subscription; `code` tells the client why. */
export class JoinRefused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const SERVICE_CALLER: Caller = Object.freeze({ kind: 'service' });

/** The caller as of now: tokens can expire or be revoked while the socket stays open. */
export function currentCaller(context: EmulatorContext, state: SocketState): Caller {
  // The service role cannot be revoked: apps and their service tokens are fixed while the emulator
  // runs, so a socket that was the service role at its handshake still is (no hashing per delivery).
  if (state.owner === 'service' && context.apps.has(state.appId)) return SERVICE_CALLER;
  const app = context.apps.get(state.appId);
  const caller = app ? callerFromToken(context, app, state.token) : null;
  if (!app || !caller) throw new JoinRefused('The access token is invalid or has expired', 'invalid_token');
  try {
    checkAppAccess(app, caller);
  } catch (error) {
    if (error instanceof DomainError) throw new JoinRefused(error.message, error.code);
    throw error;
  }
  return caller;
}

/** May this socket's caller follow the changes of `entity` in `appId`? Returns the caller. */
export function checkEntityAccess(context: EmulatorContext, state: SocketState, appId: string, entity: string): Caller {
  if (!context.apps.has(appId)) throw new JoinRefused(`Unknown app ${appId.slice(0, 100)}`, 'app_not_found');
  if (appId !== state.appId) throw new JoinRefused('This room belongs to another app', 'forbidden_room');
  if (!isEntityName(entity))
    throw new JoinRefused(`"${entity.slice(0, 100)}" is not a valid entity name`, 'invalid_entity');
  const caller = currentCaller(context, state);
  if (entity === USER_ENTITY && !mayFollowUsers(caller))
    throw new JoinRefused('Only admins and the service role may follow users', 'admin_required');
  return caller;
}

function checkEntityRoom(context: EmulatorContext, state: SocketState, room: string): void {
  const parts = room.split(':');
  if (parts.length !== 3) throw new JoinRefused('Entity rooms look like entities:{appId}:{Entity}', 'unknown_room');
  const [, appId, entity] = parts as [string, string, string];
  checkEntityAccess(context, state, appId, entity);
}

/** The record as this socket's caller may see it now; null: it gets no event. */
export function entityViewFor(
  context: EmulatorContext,
  state: SocketState,
  entity: string,
  record: EntityRecord,
): EntityRecord | null {
  try {
    return recordRules(context.entities, state.appId, entity, currentCaller(context, state)).view(record);
  } catch (error) {
    // A caller that just lost access (evicted below) or a rule the project got wrong: nothing is sent.
    if (error instanceof JoinRefused || error instanceof DomainError) return null;
    throw error;
  }
}

function checkConversationRoom(context: EmulatorContext, state: SocketState, room: string): void {
  const caller = currentCaller(context, state);
  if (caller.kind === 'anonymous') throw new JoinRefused('Authentication required', 'auth_required');
  const id = room.slice('/agent-conversations/'.length);
  const conversation = context.store.findConversation(state.appId, id);
  if (!conversation || !maySeeConversation(caller, conversation)) {
    throw new JoinRefused('Conversation not found', 'conversation_not_found');
  }
}

/** May this socket's caller, as of now, follow the room? Used on join and again before every delivery. */
export function checkRoom(context: EmulatorContext, state: SocketState, room: string): void {
  if (room.startsWith('entities:')) checkEntityRoom(context, state, room);
  else if (room.startsWith('/agent-conversations/')) checkConversationRoom(context, state, room);
  else throw new JoinRefused(`Unknown room ${room}`, 'unknown_room');
}

/** The `error` event's fields for a refusal, or for a failed check the HTTP API shares. */
export function refusalOf(error: JoinRefused | DomainError): { message: string; code: string } {
  return { message: error.message, code: error.code };
}

/** Runs a check the HTTP API shares; its DomainError becomes a refusal with the same message and code. */
export function asRefusal<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof DomainError) throw new JoinRefused(error.message, error.code);
    throw error;
  }
}
