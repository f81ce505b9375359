/**
 * @jest-environment node
 *
 * Cursor tokens of `v2/list` (query/cursor.ts): what a token carries comes back as it went in, a
 * token of another app or entity or one that was changed is refused (400 invalid_cursor), and a
 * cursor continues only its own walk (400 cursor_mismatch).
 */
import { decodeCursor, encodeCursor, requireSameWalk, type PageCursor } from '@/emulator/query/cursor';

import { failureOf } from '../emulator-kit';

const CURSOR: PageCursor = {
  app: 'shop',
  entity: 'Order',
  q: { status: { $in: ['open', 'paid'] }, total: { $gt: 10 } },
  sort: '-created_date,title',
  fields: ['title', 'total'],
  distinct: null,
  after: ['2026-01-01T00:00:00.000Z', 'Äpfel', 'r00042'],
};

/** The token of `payload` as encodeCursor writes one, for payloads encodeCursor would never write. */
const tokenOf = (payload: unknown) => Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');

const invalidCursor = (why: string) => ({
  kind: 'invalid',
  code: 'invalid_cursor',
  message: `The cursor is not valid (${why}); start again without one`,
});

describe('encodeCursor / decodeCursor', () => {
  it.each<[string, PageCursor]>([
    ['a filtered, sorted, projected walk', CURSOR],
    ['a walk without a filter, sort or fields', { ...CURSOR, q: null, sort: null, fields: null, after: [null, 'r1'] }],
    ['a distinct walk', { ...CURSOR, fields: null, distinct: 'meta.city', after: [{ a: [1, 2] }] }],
  ])('round-trips %s', (_label, cursor) => {
    const token = encodeCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(token, cursor.app, cursor.entity)).toEqual(cursor);
  });

  it.each<[string, string, string]>([
    ['another entity', 'shop', 'Invoice'],
    ['another app', 'other-shop', 'Order'],
  ])('refuses a token of %s', (_label, app, entity) => {
    expect(failureOf(() => decodeCursor(encodeCursor(CURSOR), app, entity))).toEqual(
      invalidCursor('it belongs to another entity'),
    );
  });

  const { v: _version, ...withoutVersion } = JSON.parse(
    Buffer.from(encodeCursor(CURSOR), 'base64url').toString('utf8'),
  ) as Record<string, unknown>;

  it.each<[string, string, string]>([
    ['an empty token', '', 'not a cursor token'],
    ['characters outside base64url', `${encodeCursor(CURSOR)}=`, 'not a cursor token'],
    ['a token that is no JSON', Buffer.from('{"v":1,').toString('base64url'), 'not a cursor token'],
    ['JSON that is no object', tokenOf('text'), 'not a cursor token'],
    ['JSON null', tokenOf(null), 'not a cursor token'],
    ['a longer token than any cursor', 'A'.repeat(64 * 1024 + 1), 'not a cursor token'],
    ['another version', tokenOf({ ...withoutVersion, v: 2 }), 'unknown format'],
    ['no version', tokenOf(withoutVersion), 'unknown format'],
    ['no position', tokenOf({ ...withoutVersion, v: 1, after: undefined }), 'unknown format'],
    ['a position that is no list', tokenOf({ ...withoutVersion, v: 1, after: 'r1' }), 'unknown format'],
    ['a sort that is no string', tokenOf({ ...withoutVersion, v: 1, sort: ['title'] }), 'unknown format'],
    ['a distinct field that is no string', tokenOf({ ...withoutVersion, v: 1, distinct: 1 }), 'unknown format'],
    ['fields that are not names', tokenOf({ ...withoutVersion, v: 1, fields: [1] }), 'unknown format'],
    ['fields that are no list', tokenOf({ ...withoutVersion, v: 1, fields: 'title' }), 'unknown format'],
    [
      'a reserved name planted in the filter',
      tokenOf({ ...withoutVersion, v: 1, q: JSON.parse('{"__proto__": {"admin": true}}') as unknown }),
      'The cursor has the reserved field name "__proto__"',
    ],
    [
      'a position nested too deep',
      tokenOf({ ...withoutVersion, v: 1, after: [JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) as unknown] }),
      'The cursor nests deeper than 32 levels',
    ],
  ])('refuses %s', (_label, token, why) => {
    expect(failureOf(() => decodeCursor(token, CURSOR.app, CURSOR.entity))).toEqual(invalidCursor(why));
  });

  it('refuses a token whose app was changed in its text', () => {
    const tampered = tokenOf({ ...withoutVersion, v: 1, app: 'other-shop' });
    expect(failureOf(() => decodeCursor(tampered, CURSOR.app, CURSOR.entity))).toEqual(
      invalidCursor('it belongs to another entity'),
    );
  });
});

describe('requireSameWalk', () => {
  it.each<[string, Partial<PageCursor>]>([
    ['nothing but the cursor', {}],
    ['the same filter', { q: structuredClone(CURSOR.q) }],
    ['the same sort, fields and distinct field', { sort: CURSOR.sort, fields: CURSOR.fields, distinct: null }],
  ])('lets a request with %s continue', (_label, request) => {
    expect(() => requireSameWalk(CURSOR, request)).not.toThrow();
  });

  it.each<[string, Partial<PageCursor>, string]>([
    ['another filter', { q: { status: 'open' } }, 'q'],
    ['the same filter in another key order', { q: { total: { $gt: 10 }, status: { $in: ['open', 'paid'] } } }, 'q'],
    ['another sort', { sort: 'title' }, 'sort'],
    ['no fields', { fields: null }, 'fields'],
    ['another distinct field', { distinct: 'title' }, 'distinct'],
    ['a filter and a sort', { q: null, sort: null }, 'q, sort'],
  ])('refuses a request with %s', (_label, request, changed) => {
    expect(failureOf(() => requireSameWalk(CURSOR, request))).toEqual({
      kind: 'invalid',
      code: 'cursor_mismatch',
      message: `A cursor carries its own ${changed}; pass only cursor and limit, or start a new walk`,
    });
  });
});
