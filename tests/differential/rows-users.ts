/**
 * Rows about the built-in `User` entity, as the platform's API reference describes it ("Get app
 * user", "Update app user", "Remove app user"), and the list parameters of the entity API.
 */
import { q, without, type Row, type Seen } from './rows';

/** The vendor's editor-account field (deviation `vendor-user-fields`), our `app_id` and `created_by`, left out. */
const EDITOR_FIELDS = ['collaborator_role', 'app_id', 'created_by'];

function asUser(seen: Seen | undefined): Seen | undefined {
  if (!seen || typeof seen.body !== 'object' || seen.body === null || Array.isArray(seen.body)) return seen;
  return { status: seen.status, body: without(seen.body, ...EDITOR_FIELDS) };
}

/** The answers agree once the vendor's editor fields are left out. */
function alikeAsUsers(vendor: Seen[], ours: Seen[]): void {
  expect(ours.map(asUser)).toEqual(vendor.map(asUser));
}

export const USER_ROWS: Row[] = [
  {
    name: "a user updates its own record: email and full_name are the account's, the role is not its own to change",
    steps: [
      {
        actor: 'user',
        method: 'PUT',
        path: '/entities/User/me',
        body: { full_name: 'Renamed', email: 'taken@example.com', role: 'admin', nickname: 'nick' },
      },
      { actor: 'user', method: 'GET', path: '/entities/User/me' },
    ],
    deviation: {
      id: 'vendor-user-fields',
      differs(vendor, ours) {
        alikeAsUsers(vendor, ours);
        expect(ours[1]?.body).toMatchObject({ email: 'second@example.com', role: 'user', nickname: 'nick' });
        expect(ours[1]?.body).not.toMatchObject({ full_name: 'Renamed' });
      },
    },
  },
  {
    name: "the SDK User type's built-in fields are not a user's to set",
    steps: [
      {
        actor: 'user',
        method: 'PUT',
        path: '/entities/User/me',
        body: { is_verified: false, disabled: true, is_service: true, app_id: 'other-app', collaborator_role: 'owner' },
      },
      { actor: 'user', method: 'GET', path: '/entities/User/me' },
    ],
    deviation: {
      id: 'vendor-user-fields',
      differs(vendor, ours) {
        alikeAsUsers(vendor, ours);
        const builtIn = { is_verified: true, disabled: null, is_service: false };
        expect(ours[1]?.body).toMatchObject({ ...builtIn, app_id: 'differential-app' });
        expect(vendor[1]?.body).toMatchObject({ ...builtIn, collaborator_role: 'editor' });
      },
    },
  },
  {
    name: 'users are not created through the entity API',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/User', body: { email: 'new@example.com', full_name: 'New' } },
      { actor: 'admin', method: 'GET', path: `/entities/User?${q({ email: 'new@example.com' })}` },
    ],
  },
  {
    name: "an admin changes another user's role",
    steps: [
      { actor: 'user', method: 'GET', path: '/entities/User/me', save: 'u', setup: true },
      { actor: 'admin', method: 'PUT', path: '/entities/User/{u}', body: { role: 'admin' } },
      { actor: 'admin', method: 'PUT', path: '/entities/User/{u}', body: { role: 'user' }, setup: true },
    ],
    deviation: {
      id: 'user-role-change',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({ status: 200, body: expect.objectContaining({ role: 'user' }) });
        expect(ours[0]).toEqual({ status: 200, body: expect.objectContaining({ role: 'admin' }) });
      },
    },
  },
  {
    name: 'a user removes another user',
    steps: [
      { actor: 'admin', method: 'GET', path: '/entities/User/me', save: 'a', setup: true },
      { actor: 'user', method: 'DELETE', path: '/entities/User/{a}' },
      { actor: 'admin', method: 'GET', path: '/entities/User/me' },
    ],
    deviation: {
      id: 'user-removal-admins-only',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({ status: 200, body: {} });
        expect(ours[0]).toEqual({ status: 403, body: expect.objectContaining({ code: 'admin_required' }) });
        // Nobody was removed on either side.
        expect(vendor[1]?.status).toBe(200);
        expect(ours[1]?.status).toBe(200);
      },
    },
  },
  {
    name: "an admin changes or removes a user whose record the User definition's update and delete rules refuse",
    steps: [
      { actor: 'user', method: 'PUT', path: '/entities/User/me', body: { nickname: 'frozen' }, save: 'u', setup: true },
      { actor: 'admin', method: 'PUT', path: '/entities/User/{u}', body: { nickname: 'thawed' } },
      { actor: 'admin', method: 'DELETE', path: '/entities/User/{u}' },
      { actor: 'user', method: 'GET', path: '/entities/User/me' },
      { actor: 'user', method: 'PUT', path: '/entities/User/me', body: { nickname: 'nick' }, setup: true },
    ],
    deviation: {
      id: 'user-row-rules',
      differs(vendor, ours) {
        expect(vendor.map((seen) => seen.status)).toEqual([200, 200, 200]);
        expect(vendor[2]?.body).toMatchObject({ nickname: 'thawed' });
        expect(ours.map((seen) => seen.status)).toEqual([403, 403, 200]);
        expect(ours[0]?.body).toMatchObject({ code: 'permission_denied' });
        expect(ours[2]?.body).toMatchObject({ nickname: 'frozen' });
      },
    },
  },
  {
    name: "a user changes another user's record",
    steps: [
      { actor: 'admin', method: 'GET', path: '/entities/User/me', save: 'a', setup: true },
      { actor: 'user', method: 'PUT', path: '/entities/User/{a}', body: { nickname: 'taken over' } },
    ],
    deviation: {
      id: 'user-changes-own-record-only',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({ status: 200, body: expect.objectContaining({ nickname: 'taken over' }) });
        expect(ours[0]).toEqual({ status: 404, body: expect.objectContaining({ code: 'record_not_found' }) });
      },
    },
  },
  {
    name: "field rules bind every User record, the caller's own included",
    steps: [
      { actor: 'user', method: 'GET', path: '/entities/User/me', save: 'u', setup: true },
      { actor: 'admin', method: 'PUT', path: '/entities/User/{u}', body: { level: 'gold' }, setup: true },
      { actor: 'user', method: 'GET', path: '/entities/User/me' },
      { actor: 'user', method: 'PUT', path: '/entities/User/me', body: { level: 'platinum' } },
      { actor: 'admin', method: 'GET', path: '/entities/User/{u}' },
    ],
    deviation: {
      id: 'user-field-rules',
      differs(vendor, ours) {
        expect(vendor.map((seen) => (seen.body as { level?: unknown }).level)).toEqual([
          'gold',
          'platinum',
          'platinum',
        ]);
        expect(ours.map((seen) => (seen.body as { level?: unknown }).level)).toEqual([undefined, undefined, 'gold']);
        expect(ours.map((seen) => seen.status)).toEqual([200, 200, 200]);
      },
    },
  },
  {
    name: 'the fields of a User update are not checked against its schema',
    steps: [{ actor: 'user', method: 'PUT', path: '/entities/User/me', body: { nickname: 5, mood: 'calm' } }],
    deviation: {
      id: 'user-schema-not-applied',
      differs(vendor, ours) {
        expect(vendor).toEqual([{ status: 422, body: expect.objectContaining({ error_type: 'ValidationError' }) }]);
        expect(ours).toEqual([{ status: 200, body: expect.objectContaining({ nickname: 5, mood: 'calm' }) }]);
      },
    },
  },
  {
    name: 'a negative or non-numeric limit or skip',
    steps: [
      { actor: 'user', method: 'GET', path: `/entities/Board?${q({ title: 'no-such-board' })}&limit=-1` },
      { actor: 'user', method: 'GET', path: `/entities/Board?${q({ title: 'no-such-board' })}&skip=abc` },
    ],
    deviation: {
      id: 'list-parameters-checked',
      differs(vendor, ours) {
        expect(vendor).toEqual([
          { status: 200, body: [] },
          { status: 200, body: [] },
        ]);
        expect(ours.map((seen) => [seen.status, (seen.body as { code?: string }).code])).toEqual([
          [400, 'invalid_limit'],
          [400, 'invalid_skip'],
        ]);
      },
    },
  },
];
