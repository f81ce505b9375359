import { requireRole } from '../auth/accounts';
import { authorize, isPrivileged, requireUser, type Caller } from '../auth/caller';
import type { EmulatorContext } from '../context';
import { forbidden, invalidInput } from '../core/errors';
import { readJsonObject } from '../http/body';
import { jsonReply } from '../http/reply';
import type { Router } from '../http/router';
import { userFields } from '../store/records';
import type { EntityRecord } from '../types';

/**
 * The rules for changing a `User` record, used by `User/me` and by `PUT entities/User/{id}`:
 * the e-mail is the login name and never changes here; nobody changes their own role; only admins
 * and the service role change someone else's record or role.
 */
export function applyUserUpdate(
  context: EmulatorContext,
  caller: Caller,
  record: EntityRecord,
  body: Record<string, unknown>,
): EntityRecord {
  const fields = userFields(body, 'The user');
  const isSelf = caller.kind === 'user' && caller.account.id === record.id;
  if (!isSelf && !isPrivileged(caller)) throw forbidden('You can only change your own user record', 'not_own_record');
  if (Object.hasOwn(fields, 'email') && fields.email !== record.email) {
    throw invalidInput('The e-mail address of a user cannot be changed', 'email_immutable');
  }
  if (Object.hasOwn(fields, 'role')) {
    const role = requireRole(fields.role);
    if (role !== record.role && isSelf) throw forbidden('A user cannot change its own role', 'cannot_change_own_role');
  }
  if (Object.hasOwn(fields, 'full_name') && (typeof fields.full_name !== 'string' || fields.full_name.length > 200)) {
    throw invalidInput('full_name must be a string of at most 200 characters', 'invalid_field');
  }
  return { ...record, ...fields, updated_date: context.nowIso() };
}

export function registerUserMeRoutes(router: Router, context: EmulatorContext): void {
  const path = '/api/apps/:appId/entities/User/me';

  router.add('GET', path, (request) => {
    const { caller } = authorize(context, request.params.appId as string, request.headers);
    const user = requireUser(caller);
    return jsonReply(200, user.member);
  });

  router.add('PUT', path, async (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    const user = requireUser(caller);
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    const record = user.member as EntityRecord;
    const updated = applyUserUpdate(context, caller, record, body);
    context.store.collection(app.id, 'User')[record.id] = updated;
    await context.store.commit();
    context.realtime.entityChanged(app.id, 'User', 'update', updated);
    return jsonReply(200, updated);
  });
}
