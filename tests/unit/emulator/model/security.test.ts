/**
 * @jest-environment node
 *
 * Row- and field-level security of a project's entity (model/security.ts) for each kind of
 * caller: the owner, another user, an admin (a user whose role rules may name; no rule exempts
 * it), an anonymous visitor (whom no condition admits) and the service role (bound by no rule).
 */
import type { Caller } from '@/emulator/auth/caller';
import type { EntityRecord } from '@/emulator/core/types';
import { SCHEMALESS } from '@/emulator/entities/definition';
import { RecordSecurity, type RowOperation } from '@/emulator/model/security';

import { ANONYMOUS, definitionsOf, SERVICE, userCaller } from '../emulator-kit';

const ADMIN_ONLY = { user_condition: { role: 'admin' } };
const OWN = { created_by: '{{user.email}}' };

/** Notes: users create; owners, readers of public notes and admins read; owners and admins change; admins delete. */
const NOTE = {
  name: 'Note',
  properties: {
    title: { type: 'string' },
    public: { type: 'boolean' },
    secret: { type: 'string', rls: { read: OWN, write: ADMIN_ONLY } },
    audit: { type: 'string', rls: { read: false } },
    stamp: { type: 'string', rls: { write: false } },
  },
  rls: {
    create: { user_condition: { role: 'user' } },
    read: { $or: [OWN, { 'data.public': true }, ADMIN_ONLY] },
    update: { $or: [OWN, ADMIN_ONLY] },
    delete: ADMIN_ONLY,
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

const rulesOf = (who: Who, schema: object = NOTE) =>
  RecordSecurity.of(definitionsOf(schema), 'app', 'Note', CALLERS[who] as Caller);

function note(id: string, owner: string, fields: Record<string, unknown>): EntityRecord {
  return {
    id,
    created_date: '2026-11-25T10:00:00.000Z',
    updated_date: '2026-11-25T10:00:00.000Z',
    created_by: owner,
    created_by_id: `id-${owner}`,
    ...fields,
  };
}
/** Ana's private note and Bo's public one. */
const ANAS = note('n1', 'ana@example.com', { title: 'mine', public: false, secret: 's1', audit: 'a1', stamp: 't1' });
const BOS = note('n2', 'bo@example.com', { title: 'ours', public: true, secret: 's2', audit: 'a2' });

describe('row rules', () => {
  it.each<[RowOperation, EntityRecord, Record<Who, boolean>]>([
    ['create', ANAS, { ana: true, bo: true, admin: false, anonymous: false, service: true }],
    ['read', ANAS, { ana: true, bo: false, admin: true, anonymous: false, service: true }],
    ['read', BOS, { ana: true, bo: true, admin: true, anonymous: false, service: true }],
    ['update', ANAS, { ana: true, bo: false, admin: true, anonymous: false, service: true }],
    ['update', BOS, { ana: false, bo: true, admin: true, anonymous: false, service: true }],
    ['delete', ANAS, { ana: false, bo: false, admin: true, anonymous: false, service: true }],
  ])('%s of %p', (operation, record, expected) => {
    const verdicts = Object.fromEntries(
      Object.keys(CALLERS).map((who) => [who, rulesOf(who).allows(operation, record)]),
    );
    expect(verdicts).toEqual(expected);
  });

  it('a rule judges the stored record, not what the caller claims it is', () => {
    // Bo's copy of Ana's note with Bo's address in a field of its own: created_by still says Ana.
    expect(rulesOf('bo').allows('update', { ...ANAS, data: { created_by: 'bo@example.com' } })).toBe(false);
  });

  it.each<[string, object, Who, RowOperation, boolean]>([
    ['write: false stands for delete', { ...NOTE, rls: { write: false } }, 'ana', 'delete', true],
    ['write: false stands for create', { ...NOTE, rls: { write: false } }, 'admin', 'create', true],
    ['write: false leaves read open', { ...NOTE, rls: { write: false } }, 'ana', 'read', false],
    ['an own update rule beats write', { ...NOTE, rls: { write: false, update: true } }, 'ana', 'update', false],
    ['a condition is not "no record" for a visitor', NOTE, 'anonymous', 'read', false],
    ['read: false', { ...NOTE, rls: { read: false } }, 'admin', 'read', true],
    ['the service role is bound by none', { ...NOTE, rls: { read: false } }, 'service', 'read', false],
  ])('deniesEveryRecord: %s', (_label, schema, who, operation, denied) => {
    expect(rulesOf(who, schema).deniesEveryRecord(operation)).toBe(denied);
  });

  it('an entity without rules lets everyone do everything, and its views are the records themselves', () => {
    const open = rulesOf('anonymous', { name: 'Note', properties: { title: { type: 'string' } } });
    const records = [ANAS, BOS];
    expect((['create', 'read', 'update', 'delete'] as const).map((operation) => open.allows(operation, ANAS))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([open.defined, open.seesEverything, open.views(records) === records]).toEqual([true, true, true]);
  });

  it('an entity of a schemaless app is not "defined" and binds nobody', () => {
    const rules = RecordSecurity.of(SCHEMALESS, 'app', 'Anything', ANONYMOUS);
    expect([rules.defined, rules.allows('delete', ANAS), rules.seesEverything]).toEqual([false, true, true]);
  });

  it('an unfilled template matches nothing (a user without a department reads no department’s notes)', () => {
    const schema = { ...NOTE, rls: { read: { 'data.department': '{{user.data.department}}' } } };
    const record = note('n3', 'bo@example.com', { department: '' });
    const without = RecordSecurity.of(definitionsOf(schema), 'app', 'Note', userCaller('cy@example.com'));
    const within = RecordSecurity.of(
      definitionsOf(schema),
      'app',
      'Note',
      userCaller('dee@example.com', 'user', { department: '' }),
    );
    expect([without.allows('read', record), within.allows('read', record)]).toEqual([false, true]);
  });
});

describe('field rules', () => {
  it.each<[Who, EntityRecord, EntityRecord | null]>([
    ['ana', ANAS, (({ audit: _audit, ...rest }) => rest)(ANAS)],
    ['ana', BOS, (({ audit: _audit, secret: _secret, ...rest }) => rest)(BOS)],
    ['bo', ANAS, null],
    ['bo', BOS, (({ audit: _audit, ...rest }) => rest)(BOS)],
    ['admin', ANAS, (({ audit: _audit, secret: _secret, ...rest }) => rest)(ANAS)],
    ['anonymous', BOS, null],
    ['service', ANAS, ANAS],
  ])('%s views %p as %p', (who, record, view) => {
    expect(rulesOf(who).view(record)).toEqual(view);
  });

  it('fieldView hides fields whether or not the record may be read', () => {
    expect(rulesOf('bo').fieldView(ANAS)).toEqual((({ audit: _audit, secret: _secret, ...rest }) => rest)(ANAS));
  });

  it('views keeps the readable records, as each is seen', () => {
    expect(rulesOf('bo').views([ANAS, BOS])).toEqual([(({ audit: _audit, ...rest }) => rest)(BOS)]);
    expect(rulesOf('anonymous').views([ANAS, BOS])).toEqual([]);
  });

  it.each<[Who, Record<string, boolean>, boolean]>([
    ['ana', { title: false, secret: true, audit: true, stamp: false }, false],
    ['service', { title: false, secret: false, audit: false, stamp: false }, true],
  ])('%s: mayHideField %p, seesEverything %p', (who, hides, seesAll) => {
    const rules = rulesOf(who);
    expect(Object.fromEntries(Object.keys(hides).map((field) => [field, rules.mayHideField(field)]))).toEqual(hides);
    expect(rules.seesEverything).toBe(seesAll);
  });

  it.each<[Who, string, EntityRecord, boolean]>([
    ['ana', 'title', ANAS, true],
    ['ana', 'secret', ANAS, false],
    ['admin', 'secret', ANAS, false],
    ['admin', 'secret', note('n4', 'admin@example.com', {}), true],
    ['ana', 'audit', ANAS, false],
    ['ana', 'stamp', ANAS, false],
    ['service', 'stamp', ANAS, true],
  ])('%s mayReadAndWrite %p of %p: %p', (who, field, record, allowed) => {
    expect(rulesOf(who).mayReadAndWrite(field, record)).toBe(allowed);
  });

  it.each<[Who, string[]]>([
    ['ana', ['secret', 'stamp']],
    ['admin', ['stamp']],
    ['anonymous', ['secret', 'stamp']],
    ['service', []],
  ])('%s may not write %p', (who, fields) => {
    expect(rulesOf(who).unwritableFields(ANAS)).toEqual(fields);
  });

  it('keepUnwritable restores what the caller may not write, and removes what it added there', () => {
    const before = (({ stamp: _stamp, ...rest }) => rest)(ANAS) as EntityRecord;
    const after = { ...before, title: 'changed', secret: 'forged', stamp: 'forged' };
    expect(rulesOf('ana').keepUnwritable(before, after)).toEqual({ ...before, title: 'changed' });
    expect(rulesOf('admin').keepUnwritable(before, after)).toEqual({ ...before, title: 'changed', secret: 'forged' });
    expect(rulesOf('service').keepUnwritable(before, after)).toBe(after);
  });
});
