/**
 * Rows about the order and the scope of the row rules: permission before the schema, each
 * operation judged by its own rule, what a create or a change answers, and deletes by filter.
 */
import { q, type Row } from './rows';

export const RULE_ROWS: Row[] = [
  {
    name: 'a create the rule refuses is refused before the schema is checked',
    steps: [
      // No title (required) and another owner: the create rule answers first, so nothing is said about the schema.
      { actor: 'user', method: 'POST', path: '/entities/Ticket', body: { owner: 'someone@example.com' } },
      { actor: 'user', method: 'POST', path: '/entities/Ticket', body: { owner: 'second@example.com', title: 5 } },
    ],
    deviation: {
      id: 'errors-carry-a-message',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({ status: 403, body: { error: 'Permission denied' } });
        expect(ours[0]).toEqual({ status: 403, body: expect.objectContaining({ code: 'permission_denied' }) });
        // A create the rule admits meets the schema alike.
        expect(ours[1]).toEqual(vendor[1]);
        expect(ours[1]?.status).toBe(422);
      },
    },
  },
  {
    name: 'a create rule judged on a field of the record',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/Ticket', body: { owner: 'second@example.com', title: 'mine' } },
      { actor: 'user', method: 'GET', path: `/entities/Ticket?${q({ title: 'mine' })}` },
    ],
  },
  {
    name: 'an update rule admits a change of a record the read rule hides',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/Memo', body: { title: 'memo-1' }, save: 'm', setup: true },
      { actor: 'admin', method: 'GET', path: '/entities/Memo/{m}' },
      { actor: 'admin', method: 'PUT', path: '/entities/Memo/{m}', body: { title: 'memo-1 by admin' } },
      { actor: 'user', method: 'GET', path: '/entities/Memo/{m}' },
    ],
    deviation: {
      id: 'change-answer-readable-only',
      differs(vendor, ours) {
        const hidden = { status: 404, body: { message: 'Entity Memo with ID id#1 not found' } };
        expect(vendor[0]).toEqual(hidden);
        expect(ours[0]).toEqual({ status: 404, body: expect.objectContaining({ code: 'record_not_found' }) });
        // The change happens on both; the vendor echoes the record its caller may not read.
        expect(vendor[1]).toEqual({ status: 200, body: expect.objectContaining({ title: 'memo-1 by admin' }) });
        expect(ours[1]).toEqual({ status: 200, body: { id: 'id#1' } });
        expect(ours[2]).toEqual(vendor[2]);
        expect(ours[2]?.body).toMatchObject({ title: 'memo-1 by admin' });
      },
    },
  },
  {
    name: 'a delete rule admits a record the read rule hides',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/Memo', body: { title: 'memo-2' }, save: 'm', setup: true },
      { actor: 'admin', method: 'DELETE', path: '/entities/Memo/{m}' },
      { actor: 'user', method: 'GET', path: `/entities/Memo?${q({ title: 'memo-2' })}` },
    ],
    deviation: {
      id: 'delete-names-the-record',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({ status: 200, body: { success: true } });
        expect(ours[0]).toEqual({ status: 200, body: { success: true, id: 'id#1' } });
        expect(ours[1]).toEqual(vendor[1]);
        expect(ours[1]).toEqual({ status: 200, body: [] });
      },
    },
  },
  {
    name: "a visitor's create answers what it sent, where it may not read the record",
    steps: [{ actor: 'anonymous', method: 'POST', path: '/entities/Memo', body: { title: 'memo-anon' } }],
    deviation: {
      id: 'creator-fields',
      differs(vendor, ours) {
        expect(vendor[0]?.status).toBe(201);
        expect(vendor[0]?.body).not.toHaveProperty('created_by');
        expect(ours).toEqual([
          { status: 201, body: { ...(vendor[0]?.body as object), created_by: null, created_by_id: null } },
        ]);
      },
    },
  },
  {
    name: 'a visitor deletes by filter under a condition rule: nothing',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/Note', body: { title: 'kept-1' }, setup: true },
      { actor: 'anonymous', method: 'DELETE', path: '/entities/Note', body: { title: 'kept-1' } },
      { actor: 'service', method: 'GET', path: `/entities/Note?${q({ title: 'kept-1' })}` },
    ],
  },
];
