import type { Caller } from '@/emulator/auth/caller';
import type { EntityRecord } from '@/emulator/core/types';
import type { EntityDefinitions } from '@/emulator/entities/definition';
import { parseEntityDefinition } from '@/emulator/entities/parse';
import { checkRule, compileRule, type RuleSubject } from '@/emulator/entities/rule';
import { RecordSecurity } from '@/emulator/model/security';

/**
 * The security layer on its own: rule syntax and meaning as docs.base44.com (Entities → Security)
 * documents them, on definitions built in the test. The HTTP and socket paths are in
 * entity-security.test.ts.
 */

const ANA: RuleSubject = { email: 'ana@example.com', id: 'u-ana', role: 'user', data: { department: 'sales' } };

function record(fields: Record<string, unknown>): EntityRecord {
  return {
    id: 'r1',
    created_date: '2026-01-01T00:00:00.000Z',
    updated_date: '2026-01-01T00:00:00.000Z',
    created_by: 'ana@example.com',
    created_by_id: 'u-ana',
    ...fields,
  };
}

/** A rule's answer for a caller on a record, through the layer (data fields under `data.`). */
function allows(rule: unknown, fields: Record<string, unknown>, subject: RuleSubject | null = ANA): boolean {
  const definitions = definitionsOf({ name: 'Note', properties: { title: { type: 'string' } }, rls: { read: rule } });
  return RecordSecurity.of(definitions, 'app', 'Note', callerOf(subject)).allows('read', record(fields));
}

function definitionsOf(entity: Record<string, unknown>): EntityDefinitions {
  const definition = parseEntityDefinition(JSON.stringify(entity), 'note.jsonc');
  return { lookup: (_app, name) => (name === definition.name ? { kind: 'defined', definition } : { kind: 'missing' }) };
}

function callerOf(subject: RuleSubject | null): Caller {
  if (subject === null) return { kind: 'anonymous' };
  return {
    kind: 'user',
    account: {
      id: subject.id,
      email: subject.email,
      full_name: '',
      password_hash: null,
      email_verified: true,
      token_version: 0,
      created_date: '',
    },
    member: {
      ...subject.data,
      id: subject.id,
      role: subject.role,
      created_date: '',
      updated_date: '',
      created_by: null,
    },
    role: subject.role === 'admin' ? 'admin' : 'user',
    sessionId: null,
  };
}

describe('a row rule', () => {
  it('allows everyone when missing, true or {}, and no one when false', () => {
    expect(allows(undefined, {})).toBe(true);
    expect(allows(true, {}, null)).toBe(true);
    expect(allows({}, {}, null)).toBe(true);
    expect(allows(false, {})).toBe(false);
  });

  it('compares record fields with the caller: created_by, created_by_id, data.<field>', () => {
    expect(allows({ created_by: '{{user.email}}' }, {})).toBe(true);
    expect(allows({ created_by: '{{user.email}}' }, { created_by: 'bo@example.com' })).toBe(false);
    expect(allows({ created_by_id: '{{user.id}}' }, {})).toBe(true);
    expect(allows({ 'data.department': '{{user.data.department}}' }, { department: 'sales' })).toBe(true);
    expect(allows({ 'data.department': '{{user.data.department}}' }, { department: 'hr' })).toBe(false);
    expect(allows({ 'data.status': 'approved' }, { status: 'approved' })).toBe(true);
    expect(allows({ 'data.owner': 'user-{{user.id}}' }, { owner: 'user-u-ana' })).toBe(true);
  });

  it('checks the caller itself with user_condition (equality only)', () => {
    expect(allows({ user_condition: { role: 'admin' } }, {})).toBe(false);
    expect(allows({ user_condition: { role: 'admin' } }, {}, { ...ANA, role: 'admin' })).toBe(true);
    expect(allows({ user_condition: { 'data.department': 'sales' } }, {})).toBe(true);
    expect(allows({ user_condition: { id: '{{user.id}}' } }, {})).toBe(true);
  });

  it('knows $in, $nin, $ne, $all and $or, $and, $nor', () => {
    expect(allows({ 'data.category': { $in: ['public', 'shared'] } }, { category: 'shared' })).toBe(true);
    expect(allows({ 'data.status': { $nin: ['archived'] } }, { status: 'archived' })).toBe(false);
    expect(allows({ 'data.visibility': { $ne: 'private' } }, { visibility: 'team' })).toBe(true);
    expect(allows({ 'data.tags': { $all: ['a', 'b'] } }, { tags: ['b', 'c', 'a'] })).toBe(true);
    expect(allows({ 'data.tags': { $all: ['a', 'b'] } }, { tags: ['a'] })).toBe(false);
    const ownerOrAdmin = { $or: [{ created_by: '{{user.email}}' }, { user_condition: { role: 'admin' } }] };
    expect(allows(ownerOrAdmin, { created_by: 'bo@example.com' })).toBe(false);
    expect(allows(ownerOrAdmin, { created_by: 'bo@example.com' }, { ...ANA, role: 'admin' })).toBe(true);
    const notDraft = { $and: [{ 'data.status': { $ne: 'draft' } }, { $or: [{ 'data.visibility': 'public' }] }] };
    expect(allows(notDraft, { status: 'live', visibility: 'public' })).toBe(true);
    expect(allows({ $nor: [{ 'data.status': 'draft' }] }, { status: 'draft' })).toBe(false);
  });

  it('admits no anonymous visitor to a condition, and no one through a template it cannot fill', () => {
    expect(allows({ 'data.status': 'approved' }, { status: 'approved' }, null)).toBe(false);
    // A user without a department matches no record, not even one whose department is empty.
    const noDepartment = { ...ANA, data: {} };
    expect(allows({ 'data.department': '{{user.data.department}}' }, { department: '' }, noDepartment)).toBe(false);
    expect(allows({ 'data.department': '{{user.data.department}}' }, {}, noDepartment)).toBe(false);
  });

  it("treats the caller's own values as data, never as operators", () => {
    const sneaky: RuleSubject = { ...ANA, email: '{"$ne":null}', data: { department: { $ne: 'x' } } };
    expect(allows({ created_by: '{{user.email}}' }, {}, sneaky)).toBe(false);
    expect(allows({ 'data.department': '{{user.data.department}}' }, { department: 'sales' }, sneaky)).toBe(false);
  });

  it.each([
    [{ 'data.n': { $gt: 1 } }, /not a rule operator/],
    [{ 'data.n': { $regex: '.' } }, /not a rule operator/],
    [{ user_condition: { role: { $in: ['admin'] } } }, /equality only/],
    [{ user_condition: {} }, /non-empty object/],
    [{ $or: [] }, /non-empty list/],
    [{ status: 'x' }, /not a record field/],
    [{ created_by: '{{user.password}}' }, /not a user attribute/],
    [{ $where: 'true' }, /not a record field/],
  ])('refuses %j', (rule, message) => {
    expect(() => checkRule(rule)).toThrow(message);
    // Also for anonymous callers: a broken rule is reported, not silently closed.
    expect(() => compileRule(rule, null)).toThrow(message);
  });
});

describe('the security of an entity', () => {
  const EMPLOYEE = {
    name: 'Employee',
    properties: {
      name: { type: 'string' },
      salary: {
        type: 'number',
        rls: { read: { user_condition: { role: 'hr' } }, write: { user_condition: { role: 'hr' } } },
      },
      notes: { type: 'string', rls: { read: { created_by: '{{user.email}}' }, write: false } },
    },
    rls: { create: true, read: true, write: { created_by: '{{user.email}}' }, delete: false },
  };
  const definitions = definitionsOf(EMPLOYEE);
  const of = (caller: Caller) => RecordSecurity.of(definitions, 'app', 'Employee', caller);
  const stored = record({ name: 'Ana', salary: 50_000, notes: 'private' });

  it('leaves out the fields a caller may not read, per field rule', () => {
    expect(of(callerOf(ANA)).view(stored)).toEqual(record({ name: 'Ana', notes: 'private' }));
    expect(of(callerOf({ ...ANA, email: 'hr@example.com', role: 'hr' })).view(stored)).toEqual(
      record({ name: 'Ana', salary: 50_000 }),
    );
    expect(of({ kind: 'service' }).view(stored)).toBe(stored);
  });

  it('keeps the stored value of a field the caller may not write, and drops it from a new record', () => {
    const security = of(callerOf(ANA));
    const changed = security.keepUnwritable(stored, { ...stored, name: 'Ana B', salary: 1, notes: 'x' });
    expect(changed).toEqual(record({ name: 'Ana B', salary: 50_000, notes: 'private' }));
    expect(security.unwritableFields(record({ name: 'Bo', salary: 9 }))).toEqual(['salary', 'notes']);
  });

  it('reads `write` as the rule of update and delete where those are not set', () => {
    const security = of(callerOf(ANA));
    expect(security.allows('update', stored)).toBe(true);
    expect(security.allows('update', { ...stored, created_by: 'bo@example.com' })).toBe(false);
    expect(security.allows('delete', stored)).toBe(false);
    expect(security.deniesEveryRecord('delete')).toBe(true);
    expect(security.allows('create', stored)).toBe(true);
  });

  it('binds no rule on the service role or an entity without a definition', () => {
    expect(of({ kind: 'service' }).unrestricted).toBe(true);
    expect(RecordSecurity.of(definitions, 'app', 'Other', callerOf(ANA)).unrestricted).toBe(true);
  });

  it('refuses a broken rule of the project when the file loads, naming the file and the rule', () => {
    expect(() => definitionsOf({ name: 'Note', properties: {}, rls: { read: { 'data.n': { $gt: 1 } } } })).toThrow(
      /note\.jsonc: rls\.read is not a valid security rule: "\$gt" is not a rule operator/,
    );
  });
});
