/**
 * @jest-environment node
 *
 * Which rules an entity gets (model/rules.ts): `User` its own (UserSecurity, over the project's
 * `User` definition), every other entity the project's (RecordSecurity).
 */
import { recordRules } from '@/emulator/model/rules';
import { RecordSecurity } from '@/emulator/model/security';
import { UserSecurity } from '@/emulator/model/user-security';

import { ANONYMOUS, definitionsOf, SERVICE, userCaller } from '../emulator-kit';

const ADMIN_ONLY = { user_condition: { role: 'admin' } };
const SCHEMA = {
  name: 'Note',
  properties: { secret: { type: 'string', rls: { read: ADMIN_ONLY } } },
  rls: { delete: false },
};
/** Every entity name resolves to this one definition, `User` included. */
const definitions = definitionsOf(SCHEMA);
const RECORD = { id: 'x', created_date: '', updated_date: '', created_by: null, secret: 's' };

it.each([
  ['User', UserSecurity],
  ['Note', RecordSecurity],
  ['user', RecordSecurity],
])('%s gets %p', (entity, kind) => {
  expect(recordRules(definitions, 'app', entity, userCaller('ana@example.com'))).toBeInstanceOf(kind);
});

it('the rules of User carry the project’s rules for that caller', () => {
  const ana = recordRules(definitions, 'app', 'User', userCaller('ana@example.com', 'admin'));
  // The project's delete rule binds admins; its field rule (a condition: it may hide) admits them.
  expect([ana.deniesEveryRecord('delete'), ana.mayHideField('secret'), ana.fieldView(RECORD).secret]).toEqual([
    true,
    true,
    's',
  ]);
  const bo = recordRules(definitions, 'app', 'User', userCaller('bo@example.com'));
  expect([bo.mayHideField('secret'), 'secret' in bo.fieldView(RECORD)]).toEqual([true, false]);
});

it('the rules of any other entity are the project’s alone, also for visitors and the service role', () => {
  expect(recordRules(definitions, 'app', 'Note', ANONYMOUS).allows('read', RECORD)).toBe(true);
  expect(recordRules(definitions, 'app', 'Note', ANONYMOUS).deniesEveryRecord('delete')).toBe(true);
  expect(recordRules(definitions, 'app', 'Note', SERVICE).deniesEveryRecord('delete')).toBe(false);
});
