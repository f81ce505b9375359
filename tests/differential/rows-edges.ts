/**
 * Rows at the edges of the API: what a function sees of its request, bodies that are no record,
 * field names shared with Object.prototype, dates without an offset, body sizes, and CORS for pages
 * on this machine and elsewhere.
 */
import { q, type Row, type Seen } from './rows';

const LOCAL_PAGE = 'http://localhost:5173';
const OTHER_LOCAL_PAGE = 'http://127.0.0.1:5173';
const FOREIGN_PAGE = 'https://evil.example';
const ALLOW_ORIGIN = 'access-control-allow-origin';

/** What the fixture function `echo` answers (its entry.ts), without the fields about its address. */
function echoed(seen: Seen | undefined): unknown {
  const { body } = (seen?.body ?? {}) as { body?: Record<string, unknown> };
  const { url: _url, path: _path, ...rest } = body ?? {};
  return rest;
}

/** A seen step's exposed headers. */
const headersOf = (seen: Seen | undefined) => (seen?.body as { headers: Record<string, string | null> }).headers;
const statuses = (seen: Seen[]) => seen.map(({ status }) => status);

export const EDGE_ROWS: Row[] = [
  // --- Functions --------------------------------------------------------------------------------
  {
    name: 'what a function sees of a POST and of a GET with a query',
    steps: [
      { actor: 'user', method: 'POST', path: '/functions/echo', body: { a: 1 }, expose: ['x-echo'] },
      { actor: 'anonymous', method: 'GET', path: '/functions/echo?x=1', expose: ['x-echo'] },
    ],
    deviation: {
      id: 'function-request-url',
      differs(vendor, ours) {
        // Everything but the address agrees: method, query, the platform's headers, the body.
        expect(ours.map(echoed)).toEqual(vendor.map(echoed));
        expect(echoed(ours[0])).toMatchObject({
          method: 'POST',
          authorization: 'Bearer',
          platformHeaders: ['base44-api-url', 'base44-app-id', 'base44-service-authorization'],
          bytes: 7,
        });
        const paths = (seen: Seen[]) => seen.map((one) => (one.body as { body: { path: string } }).body.path);
        expect(paths(vendor)).toEqual(['/echo', '/echo']);
        expect(paths(ours)).toEqual([
          '/api/apps/differential-app/functions/echo',
          '/api/apps/differential-app/functions/echo',
        ]);
        const urls = ours.map((one) => (one.body as { body: { url: string } }).body.url);
        expect(urls).toEqual([
          '<backend>/api/apps/differential-app/functions/echo',
          '<backend>/api/apps/differential-app/functions/echo?x=1',
        ]);
      },
    },
  },
  {
    name: "a function's own CORS header, called from a page on localhost",
    steps: [
      {
        actor: 'user',
        method: 'GET',
        path: '/functions/echo',
        headers: { Origin: LOCAL_PAGE },
        expose: [ALLOW_ORIGIN],
      },
    ],
    deviation: {
      id: 'function-cors-emulator-policy',
      differs(vendor, ours) {
        expect(headersOf(vendor[0])).toEqual({ [ALLOW_ORIGIN]: '*' });
        expect(headersOf(ours[0])).toEqual({ [ALLOW_ORIGIN]: LOCAL_PAGE });
        expect(echoed(ours[0])).toEqual(echoed(vendor[0]));
      },
    },
  },
  {
    name: 'a function called with a body over 10 MiB',
    steps: [
      {
        actor: 'user',
        method: 'POST',
        path: '/functions/echo',
        raw: { text: 'x'.repeat(10 * 1024 * 1024 + 1), type: 'text/plain' },
      },
    ],
    deviation: {
      id: 'function-body-limit',
      differs(vendor, ours) {
        expect(vendor).toEqual([{ status: 200, body: expect.objectContaining({ bytes: 10 * 1024 * 1024 + 1 }) }]);
        expect(ours).toEqual([{ status: 413, body: expect.objectContaining({ code: 'payload_too_large' }) }]);
      },
    },
  },

  // --- Entities ---------------------------------------------------------------------------------
  {
    name: 'a date-time without an offset, as a datetime-local input gives it',
    steps: [
      {
        actor: 'user',
        method: 'POST',
        path: '/entities/Task',
        body: { title: 'local-1', starts_at: '2026-11-25T10:00' },
      },
      {
        actor: 'user',
        method: 'POST',
        path: '/entities/Task',
        body: { title: 'local-2', starts_at: '2026-11-27T21:44:37.622000' },
      },
      {
        actor: 'user',
        method: 'POST',
        path: '/entities/Task',
        body: { title: 'local-3', starts_at: '2026-11-25T10:00:00Z' },
      },
    ],
  },
  {
    name: 'fields named like Object.prototype members',
    steps: [
      {
        actor: 'user',
        method: 'POST',
        path: '/entities/Board',
        body: { title: 'proto-row', toString: 'x', constructor: 'y', valueOf: 1 },
      },
      { actor: 'user', method: 'POST', path: '/entities/Board', body: { title: 'proto-row' }, setup: true },
      {
        actor: 'user',
        method: 'GET',
        path: `/entities/Board?${q({ title: 'proto-row', toString: { $exists: true } })}`,
      },
    ],
    deviation: {
      id: 'prototype-field-names',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({
          status: 422,
          body: expect.objectContaining({ message: 'Error in field toString: Unsupported field type undefined' }),
        });
        // The vendor matches the inherited toString of a record that has no such field.
        expect(vendor[1]).toEqual({ status: 200, body: [expect.objectContaining({ title: 'proto-row' })] });
        expect(ours[0]).toEqual({ status: 201, body: expect.objectContaining({ title: 'proto-row' }) });
        expect(ours[0]?.body).not.toHaveProperty('toString', 'x');
        expect(ours[1]).toEqual({ status: 200, body: [] });
      },
    },
  },
  {
    name: 'bodies that are no record: a list, a JSON string, no JSON at all',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/Board', body: [{ title: 'in-a-list' }] },
      { actor: 'user', method: 'POST', path: '/entities/Board', raw: { text: '"text"', type: 'application/json' } },
      { actor: 'user', method: 'POST', path: '/entities/Board', raw: { text: 'not json', type: 'application/json' } },
    ],
    deviation: {
      id: 'malformed-bodies',
      differs(vendor, ours) {
        expect(vendor[0]).toEqual({
          status: 422,
          body: expect.objectContaining({ message: 'Error in field title: Field required' }),
        });
        // An HTML page with the server's stack trace.
        for (const page of vendor.slice(1)) {
          expect(page.status).toBe(400);
          expect(page.body).toEqual(expect.stringContaining('SyntaxError'));
        }
        const codes = ours.map(({ status, body }) => [status, (body as { code?: string }).code]);
        expect(codes).toEqual([
          [400, 'invalid_record'],
          [400, 'invalid_record'],
          [400, 'malformed_json'],
        ]);
      },
    },
  },
  {
    name: 'a record of 200 kB',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/Board', body: { title: 'big', internal: 'x'.repeat(200_000) } },
    ],
    deviation: {
      id: 'entity-body-limit',
      differs(vendor, ours) {
        expect(vendor).toEqual([{ status: 413, body: expect.stringContaining('PayloadTooLargeError') }]);
        expect(ours).toEqual([{ status: 201, body: expect.objectContaining({ title: 'big' }) }]);
      },
    },
  },

  // --- CORS -------------------------------------------------------------------------------------
  {
    name: 'a page on localhost (a Vite app on another port) reads, writes and asks first',
    steps: [
      {
        actor: 'user',
        method: 'OPTIONS',
        path: '/entities/Board',
        headers: { Origin: LOCAL_PAGE, 'Access-Control-Request-Method': 'POST' },
        expose: [ALLOW_ORIGIN],
      },
      {
        actor: 'user',
        method: 'POST',
        path: '/entities/Board',
        body: { title: 'from-vite' },
        headers: { Origin: LOCAL_PAGE },
        expose: [ALLOW_ORIGIN],
      },
      {
        actor: 'user',
        method: 'GET',
        path: `/entities/Board?${q({ title: 'from-vite' })}`,
        headers: { Origin: LOCAL_PAGE },
        expose: [ALLOW_ORIGIN],
      },
    ],
  },
  {
    name: 'a page on another loopback name',
    steps: [
      {
        actor: 'user',
        method: 'GET',
        path: `/entities/Board?${q({ title: 'none' })}`,
        headers: { Origin: OTHER_LOCAL_PAGE },
        expose: [ALLOW_ORIGIN],
      },
    ],
    deviation: {
      id: 'loopback-origins',
      differs(vendor, ours) {
        expect(vendor).toEqual([{ status: 200, body: { headers: { [ALLOW_ORIGIN]: null }, body: [] } }]);
        expect(ours).toEqual([{ status: 200, body: { headers: { [ALLOW_ORIGIN]: OTHER_LOCAL_PAGE }, body: [] } }]);
      },
    },
  },
  {
    name: 'a page of another site writes and reads',
    steps: [
      {
        actor: 'user',
        method: 'POST',
        path: '/entities/Board',
        body: { title: 'from-elsewhere' },
        headers: { Origin: FOREIGN_PAGE },
        expose: [ALLOW_ORIGIN],
      },
      { actor: 'user', method: 'GET', path: `/entities/Board?${q({ title: 'from-elsewhere' })}&fields=title` },
    ],
    deviation: {
      id: 'foreign-origins-refused',
      differs(vendor, ours) {
        // The vendor stores the record and only hides its answer from the page.
        expect(statuses(vendor)).toEqual([201, 200]);
        expect(headersOf(vendor[0])).toEqual({ [ALLOW_ORIGIN]: null });
        expect(vendor[1]?.body).toEqual([{ title: 'from-elsewhere' }]);
        expect(ours[0]).toEqual({
          status: 403,
          body: {
            headers: { [ALLOW_ORIGIN]: null },
            body: expect.objectContaining({
              code: 'origin_not_allowed',
              message: expect.stringContaining(`--site-origin ${FOREIGN_PAGE}`),
            }),
          },
        });
        expect(ours[1]).toEqual({ status: 200, body: [] });
      },
    },
  },
];
