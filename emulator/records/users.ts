import { issueTicket, memberOf, newAccount } from '../auth/accounts';
import { creatorIdOf, creatorOf, requireSignedIn, requireUser, type Caller } from '../auth/caller';
import { conflict, forbidden } from '../core/errors';
import { USER_ENTITY, type Account, type AppConfig, type EntityRecord, type UserRole } from '../core/types';
import type { EmulatorContext } from '../instance/context';
import { newId } from '../store/store';
import { updateRecord } from './changes';
import { commitChanges } from './commit';
import { userFields } from './fields';
import { readOne } from './reads';
import { recordScope, type RecordScope } from './scope';

/**
 * `User` records: an account's membership of an app. They are created by registration, login or
 * invitation (never through the entity API) and otherwise read and changed like any record, under
 * the `User` rules (model/user-security.ts), through the same commit and publish step.
 */

/**
 * A new user record. The `User` type's other built-in fields are the rules' to show
 * (model/user-security.ts); only an address not yet verified (an invitation) is stored as such.
 */
function newMember(context: EmulatorContext, account: Account, role: UserRole, createdBy: string | null): EntityRecord {
  const now = context.nowIso();
  return {
    id: account.id,
    email: account.email,
    full_name: account.full_name,
    role,
    created_date: now,
    updated_date: now,
    created_by: createdBy,
    ...(account.email_verified ? {} : { is_verified: false }),
  };
}

/** Makes the account a user of the app (unless it is one); answers its record and whether it is new. */
async function addMember(
  context: EmulatorContext,
  app: AppConfig,
  account: Account,
  role: UserRole,
  createdBy: string | null,
): Promise<{ record: EntityRecord; created: boolean }> {
  const existing = memberOf(context, app, account.id);
  if (existing) return { record: existing, created: false };
  const record = newMember(context, account, role, createdBy);
  await commitChanges(context, app.id, USER_ENTITY, [{ type: 'create', record }]);
  return { record, created: true };
}

/**
 * An invitation (admins and the service role): the account (made without a password when the
 * address is new) becomes a user with `role`, and is mailed how to sign in. The record is committed
 * first, with the new account and its ticket: a record the byte budget refuses leaves no account,
 * ticket or mail behind, and no mail promises an account that is not there.
 */
export async function inviteMember(
  context: EmulatorContext,
  app: AppConfig,
  caller: Caller,
  email: string,
  role: UserRole,
) {
  const known = context.store.findAccountByEmail(email);
  if (known && memberOf(context, app, known.id))
    throw conflict(`${email} is already a user of this app`, 'already_member');
  const account = known ?? newAccount(context, email, email.split('@')[0] ?? email, null);
  const record = newMember(context, account, role, creatorOf(caller));
  let ticket: string | null = null;
  await commitChanges(context, app.id, USER_ENTITY, [{ type: 'create', record }], (change) => {
    if (!known) change.addAccount(account);
    if (account.password_hash === null) ticket = issueTicket(context, change, app, account, 'invite');
  });
  const setup =
    ticket === null
      ? 'Log in with your existing account.'
      : `Choose your password with this token (valid 7 days): ${ticket}`;
  await context.store.write((change) =>
    context.sendMail(change, app.id, {
      to: email,
      subject: `You were invited to ${app.name}`,
      body: `You were invited to ${app.name} as ${role}. ${setup}`,
    }),
  );
  return { message: `Invitation sent to ${email}`, user: userScope(context, app, caller).rules.fieldView(record) };
}

/**
 * Once an address is proven (an invitee chose its password, or confirmed a registration code), the
 * user records that still mark it as pending say it is verified.
 */
export async function markVerified(context: EmulatorContext, account: Account): Promise<void> {
  for (const app of context.apps.values()) {
    const member = memberOf(context, app, account.id);
    if (member?.is_verified !== false) continue;
    const { is_verified: _pending, ...verified } = member;
    const record = { ...verified, updated_date: context.nowIso() };
    await commitChanges(context, app.id, USER_ENTITY, [{ type: 'update', record }]);
  }
}

/** Apps that admit any account make a member on first login; registered-only apps never do. */
export async function joinOnLogin(
  context: EmulatorContext,
  app: AppConfig,
  account: Account,
): Promise<EntityRecord | null> {
  if (app.access === 'registered_only') return memberOf(context, app, account.id);
  return (await addMember(context, app, account, 'user', account.email)).record;
}

/** The `User` scope of a caller in an app. */
function userScope(context: EmulatorContext, app: AppConfig, caller: Caller): RecordScope {
  return recordScope(context, app, caller, USER_ENTITY);
}

/**
 * The user object of a login answer: the caller's own record as it may read it (field rules bind it
 * too), or the bare profile of an account that is no user of the app.
 */
export function loginUserView(context: EmulatorContext, app: AppConfig, caller: Caller, member: EntityRecord | null) {
  if (member) return userScope(context, app, caller).rules.fieldView(member);
  const { account } = requireUser(caller);
  return {
    id: account.id,
    email: account.email,
    full_name: account.full_name,
    role: 'user',
    created_date: account.created_date,
  };
}

/** `User/me`: the caller's own record as it may read it. */
export function readMe(context: EmulatorContext, app: AppConfig, caller: Caller): EntityRecord {
  const user = requireUser(caller);
  return readOne(context, userScope(context, app, caller), user.account.id);
}

/** `PUT User/me`: an update of the caller's own record. */
export function updateMe(context: EmulatorContext, app: AppConfig, caller: Caller, body: unknown) {
  const user = requireUser(caller);
  if (!user.member) throw forbidden('You are not a user of this app', 'user_not_registered');
  return updateRecord(context, userScope(context, app, caller), user.account.id, body);
}

/**
 * `POST User`: users are not created through the entity API. The platform stores nothing and
 * answers as if it had, with what was sent (as the vendor's backend answers it, noting that
 * production silently ignores the call).
 */
export function ignoredUserCreation(context: EmulatorContext, scope: RecordScope, body: unknown) {
  requireSignedIn(scope.caller);
  const now = context.nowIso();
  return {
    created_by: creatorOf(scope.caller),
    created_by_id: creatorIdOf(scope.caller),
    id: newId(),
    created_date: now,
    updated_date: now,
    is_sample: false,
    ...userFields(body),
  };
}

/** `POST User/bulk`: stores nothing either, and answers `{}` (as the vendor's backend does). */
export function ignoredUserBulkCreation(scope: RecordScope): Record<string, never> {
  requireSignedIn(scope.caller);
  return {};
}
