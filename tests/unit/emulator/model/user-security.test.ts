/**
 * @jest-environment node
 *
 * The rules of the built-in `User` entity (model/user-security.ts): a user reads and changes its
 * own record, admins reach other users as far as the project's `User` rules let them, only the
 * service role is bound by none, nobody creates users here, field rules bind one's own record too,
 * and an update keeps only what the caller may set.
 */
import type { Caller } from '@/emulator/auth/caller';
import type { EntityRecord } from '@/emulator/core/types';
import { recordRules } from '@/emulator/model/rules';
import type { RowOperation } from '@/emulator/model/security';
import { mayFollowUsers, UserSecurity } from '@/emulator/model/user-security';

import { ANONYMOUS, definitionsOf, failureOf, SERVICE, userCaller } from '../emulator-kit';

const ADMIN_ONLY = { user_condition: { role: 'admin' } };
/** The project's `user.jsonc`: hidden users stay hidden, locked ones unchanged, protected ones kept; salary for admins. */
const USER_SCHEMA = {
  name: 'User',
  properties: {
    department: { type: 'string' },
    salary: { type: 'number', rls: { read: ADMIN_ONLY, write: ADMIN_ONLY } },
  },
  rls: {
    read: { 'data.hidden': { $ne: true } },
    update: { 'data.locked': { $ne: true } },
    delete: { 'data.protected': { $ne: true } },
  },
};

const CALLERS: Record<string, Caller> = {
  ana: userCaller('ana@example.com'),
  bo: userCaller('bo@example.com'),
  admin: userCaller('admin@example.com', 'admin'),
  anonymous: ANONYMOUS,
  service: SERVICE,
};
type Who = keyof typeof CALLERS;

function rulesOf(who: Who, schema: object = USER_SCHEMA): UserSecurity {
  const rules = recordRules(definitionsOf(schema), 'app', 'User', CALLERS[who] as Caller);
  if (!(rules instanceof UserSecurity)) throw new Error('User gets the rules of User');
  return rules;
}

function user(email: string, fields: Record<string, unknown> = {}): EntityRecord {
  return {
    id: `id-${email}`,
    created_date: '2026-11-25T10:00:00.000Z',
    updated_date: '2026-11-25T10:00:00.000Z',
    created_by: null,
    email,
    full_name: email.split('@')[0],
    role: 'user',
    ...fields,
  };
}
const ANA = user('ana@example.com', { salary: 10 });
const BO = user('bo@example.com', { hidden: true });
const CARL = user('carl@example.com', { locked: true, protected: true });

describe('allows', () => {
  it.each<[RowOperation, EntityRecord, Record<Who, boolean>]>([
    ['create', ANA, { ana: false, bo: false, admin: false, anonymous: false, service: false }],
    ['read', ANA, { ana: true, bo: false, admin: true, anonymous: false, service: true }],
    ['read', BO, { ana: false, bo: true, admin: false, anonymous: false, service: true }],
    ['update', ANA, { ana: true, bo: false, admin: true, anonymous: false, service: true }],
    ['update', CARL, { ana: false, bo: false, admin: false, anonymous: false, service: true }],
    ['delete', ANA, { ana: false, bo: false, admin: true, anonymous: false, service: true }],
    ['delete', CARL, { ana: false, bo: false, admin: false, anonymous: false, service: true }],
  ])('%s of %s', (operation, record, expected) => {
    const verdicts = Object.fromEntries(
      Object.keys(CALLERS).map((who) => [who, rulesOf(who).allows(operation, record)]),
    );
    expect(verdicts).toEqual(expected);
  });

  it('a user’s own record stays its own even where the rules hide or lock it', () => {
    const bo = rulesOf('bo', { ...USER_SCHEMA, rls: { read: false, write: false } });
    expect([bo.allows('read', BO), bo.allows('update', BO), bo.allows('delete', BO)]).toEqual([true, true, false]);
  });

  it('without a project definition, admins reach every user', () => {
    const admin = rulesOf('admin', { name: 'User', properties: {} });
    expect([admin.allows('read', BO), admin.allows('update', CARL), admin.allows('delete', CARL)]).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe('deniesEveryRecord', () => {
  const noRemoval = { ...USER_SCHEMA, rls: { write: false } };
  it.each<[string, Who, object, RowOperation, boolean]>([
    ['create, for everyone', 'service', USER_SCHEMA, 'create', true],
    ['delete where the project says write: false', 'admin', noRemoval, 'delete', true],
    ['delete for the service role all the same', 'service', noRemoval, 'delete', false],
    ['update is judged record by record', 'admin', noRemoval, 'update', false],
    ['delete under a condition', 'admin', USER_SCHEMA, 'delete', false],
  ])('%s', (_label, who, schema, operation, denied) => {
    expect(rulesOf(who, schema).deniesEveryRecord(operation)).toBe(denied);
  });
});

describe('what a caller sees', () => {
  const BUILT_INS = { app_id: 'app', is_service: false, disabled: null, is_verified: true };
  const withoutSalary = ({ salary: _salary, ...rest }: EntityRecord) => rest;

  it.each<[Who, EntityRecord, unknown]>([
    ['ana', ANA, { ...withoutSalary(ANA), ...BUILT_INS }],
    ['admin', ANA, { ...ANA, ...BUILT_INS }],
    ['service', ANA, { ...ANA, ...BUILT_INS }],
    ['ana', BO, null],
    ['admin', BO, null],
    ['anonymous', ANA, null],
  ])('%s views %s as %p', (who, record, view) => {
    expect(rulesOf(who).view(record)).toEqual(view);
  });

  it('a stored is_verified: false (a pending invitation) shows', () => {
    expect(rulesOf('service').view({ ...CARL, is_verified: false })?.is_verified).toBe(false);
  });

  it('views keeps the readable users', () => {
    expect(
      rulesOf('admin')
        .views([ANA, BO, CARL])
        .map((view) => view.id),
    ).toEqual([ANA.id, CARL.id]);
    expect(
      rulesOf('bo')
        .views([ANA, BO, CARL])
        .map((view) => view.id),
    ).toEqual([BO.id]);
  });

  it.each<[Who, boolean, boolean, boolean]>([
    ['ana', true, false, false],
    ['admin', true, false, true],
    ['service', false, true, true],
  ])('%s: mayHideField(salary) %p, seesEverything %p, may read and write its salary %p', (who, hides, all, rw) => {
    const rules = rulesOf(who);
    expect([rules.mayHideField('salary'), rules.seesEverything, rules.mayReadAndWrite('salary', ANA)]).toEqual([
      hides,
      all,
      rw,
    ]);
  });

  it('a field rule binds the caller’s own record: ana may not write her salary', () => {
    const ana = rulesOf('ana');
    expect(ana.unwritableFields(ANA)).toEqual(['salary']);
    expect(ana.keepUnwritable(ANA, { ...ANA, salary: 1_000_000, department: 'x' })).toEqual({
      ...ANA,
      department: 'x',
    });
  });
});

describe('gate', () => {
  it.each<[Who, RowOperation, { kind: string; code: string } | null]>([
    ['anonymous', 'read', { kind: 'unauthenticated', code: 'auth_required' }],
    ['ana', 'read', null],
    ['ana', 'update', null],
    ['ana', 'delete', { kind: 'forbidden', code: 'admin_required' }],
    ['admin', 'delete', null],
    ['service', 'delete', null],
  ])('%s, %s: %p', (who, operation, refusal) => {
    const run = () => rulesOf(who).gate(operation);
    if (refusal === null) expect(run).not.toThrow();
    else expect(failureOf(run)).toMatchObject(refusal);
  });
});

describe('changeOf', () => {
  const SENT = {
    department: 'sales',
    nickname: 5,
    role: 'admin',
    email: 'taken@example.com',
    full_name: 'Someone Else',
    id: 'other',
    collaborator_role: 'owner',
    is_verified: true,
    disabled: true,
    is_service: true,
    app_id: 'other-app',
    _app_role: 'admin',
    created_date: '2000-01-01T00:00:00.000Z',
    created_by: 'x',
  };

  it.each<[Who, EntityRecord, Record<string, unknown>]>([
    ['ana', ANA, { department: 'sales', nickname: 5 }],
    ['admin', ANA, { department: 'sales', nickname: 5, role: 'admin' }],
    ['service', ANA, { department: 'sales', nickname: 5, role: 'admin' }],
  ])('%s changing %s keeps only %p', (who, record, change) => {
    expect(rulesOf(who).changeOf(record, SENT)).toEqual(change);
  });

  it('a role that is no role is a 400 invalid_role', () => {
    expect(failureOf(() => rulesOf('admin').changeOf(ANA, { role: 'owner' }))).toEqual({
      kind: 'invalid',
      code: 'invalid_role',
      message: 'role must be "user" or "admin"',
    });
  });
});

it.each<[Who, boolean]>([
  ['ana', false],
  ['anonymous', false],
  ['admin', true],
  ['service', true],
])('mayFollowUsers(%s) is %p', (who, follows) => {
  expect(mayFollowUsers(CALLERS[who] as Caller)).toBe(follows);
});
