/** Entity collections: every handler method, with paging forms, nested filters, odd ids and files. */
import {
  answerByPath,
  answerWith,
  encodedSegments,
  entity,
  record,
  rows,
  serviceRoleSocket,
  textFile,
} from './helpers';

const NESTED_FILTER = {
  status: { $in: ['open', 'new'] },
  $or: [{ title: { $regex: '^a&b=c ?#' } }, { priority: { $gte: 2, $not: { $eq: 5 } } }],
  tags: { $all: ['x', 'y'], $size: 2 },
  owner: null,
};

export const entityRows = rows(
  {
    name: 'entities: list() without arguments',
    covers: ['entities.*.list'],
    answer: answerWith([record('r1', { title: 'A' })]),
    run: (client) => entity(client).list(),
  },
  {
    name: 'entities: list(sort, limit, skip, fields)',
    covers: ['entities.*.list'],
    answer: answerWith([record('r1')]),
    run: (client) => entity(client).list('-created_date', 20, 40, ['title', 'done']),
  },
  {
    name: 'entities: list(options) reads one cursor page',
    covers: ['entities.*.list'],
    answer: answerWith({ items: [record('r2')], next_cursor: 'c2', has_more: true }),
    run: (client) => entity(client).list({ sort: '-title', limit: 10, cursor: 'c 1/+', fields: ['title'] }),
  },
  {
    name: 'entities: list({ distinct }) pages distinct values',
    covers: ['entities.*.list'],
    answer: answerWith({ items: ['open', 'done'], next_cursor: null, has_more: false }),
    run: (client) => entity(client).list({ distinct: 'status' }),
  },
  {
    name: 'entities: filter with nested operators, sort and limit',
    covers: ['entities.*.filter'],
    answer: answerWith([record('r1')]),
    run: (client) => entity(client).filter(NESTED_FILTER, 'title', 5, 10, ['title']),
  },
  {
    name: 'entities: filter(query, options) reads one cursor page',
    covers: ['entities.*.filter'],
    answer: answerWith({ items: [], next_cursor: null, has_more: false }),
    run: (client) => entity(client).filter({ done: false }, { limit: 5, cursor: 'abc' }),
  },
  {
    name: 'entities: filter(query, { distinct })',
    covers: ['entities.*.filter'],
    answer: answerWith({ items: ['a@example.com'], next_cursor: null, has_more: false }),
    run: (client) => entity(client).filter({ done: true }, { distinct: 'owner', limit: 3 }),
  },
  {
    name: 'entities: get by id',
    covers: ['entities.*.get'],
    answer: answerWith(record('r1', { title: 'Ä' })),
    run: (client) => entity(client).get('r1'),
  },
  {
    name: 'entities: get an id that needs encoding',
    covers: ['entities.*.get'],
    answer: answerWith(record('a/b')),
    run: (client) => entity(client).get('a/b'),
    // Reference: /entities/Todo/a/b (two segments, another route); ours: /entities/Todo/a%2Fb.
    deviation: encodedSegments((path) => [...path.slice(0, -2), 'a/b']),
  },
  {
    name: 'entities: get with an entity name that needs encoding',
    covers: ['entities.*.get'],
    answer: answerWith(record('r1')),
    run: (client) => entity(client, 'Läden Übersicht').get('r1'),
  },
  {
    name: 'entities: create',
    covers: ['entities.*.create'],
    answer: answerWith(record('r9', { title: 'Neu' })),
    run: (client) => entity(client).create({ title: 'Neu', done: false, meta: { n: 1 } }),
  },
  {
    name: 'entities: update',
    covers: ['entities.*.update'],
    answer: answerWith(record('r1', { done: true })),
    run: (client) => entity(client).update('r1', { done: true }),
  },
  {
    name: 'entities: delete',
    covers: ['entities.*.delete'],
    answer: answerWith({ success: true }),
    run: (client) => entity(client).delete('r1'),
  },
  {
    name: 'entities: delete an id with "?"',
    covers: ['entities.*.delete'],
    answer: answerWith({ success: true }),
    run: (client) => entity(client).delete('x?all=1'),
    deviation: {
      // Reference: the id's tail becomes a query (`DELETE /Todo/x?all=1`); ours keeps it in the segment.
      id: 'encoded-path-segments',
      adjust(reference) {
        const adjusted = structuredClone(reference);
        for (const request of adjusted.requests) {
          request.path = [...request.path.slice(0, -1), 'x?all=1'];
          request.query = [];
        }
        return adjusted;
      },
    },
  },
  {
    name: 'entities: deleteMany',
    covers: ['entities.*.deleteMany'],
    answer: answerWith({ success: true, deleted: 2 }),
    run: (client) => entity(client).deleteMany({ done: true }),
  },
  {
    name: 'entities: bulkCreate',
    covers: ['entities.*.bulkCreate'],
    answer: answerWith([record('r1'), record('r2')]),
    run: (client) => entity(client).bulkCreate([{ title: 'A' }, { title: 'B' }]),
  },
  {
    name: 'entities: updateMany with an update operator',
    covers: ['entities.*.updateMany'],
    answer: answerWith({ success: true, updated: 2, has_more: false }),
    run: (client) => entity(client).updateMany({ done: false }, { $set: { done: true }, $inc: { views: 1 } }),
  },
  {
    name: 'entities: bulkUpdate',
    covers: ['entities.*.bulkUpdate'],
    answer: answerWith([record('r1', { done: true })]),
    run: (client) =>
      entity(client).bulkUpdate([
        { id: 'r1', done: true },
        { id: 'r2', title: 'B' },
      ]),
  },
  {
    name: 'entities: count with a query returns the number',
    covers: ['entities.*.count'],
    answer: answerWith({ count: 3 }),
    run: (client) => entity(client).count({ done: { $ne: true } }),
  },
  {
    name: 'entities: count without a query',
    covers: ['entities.*.count'],
    answer: answerWith({ count: 0 }),
    run: (client) => entity(client).count(),
  },
  {
    name: 'entities: aggregate',
    covers: ['entities.*.aggregate'],
    answer: answerWith({ rows: [{ status: 'open', count: 2, sum_points: 5 }], truncated: false }),
    run: (client) =>
      entity(client).aggregate({
        query: { done: false },
        groupBy: ['status'],
        dateBucket: { field: 'created_date', unit: 'month' },
        count: true,
        sum: 'points',
        avg: ['points'],
        having: { count: { $gt: 1 } },
        sort: '-count',
        limit: 10,
      }),
  },
  {
    name: 'entities: upsert by a natural key',
    covers: ['entities.*.upsert'],
    answer: answerWith({ created: 1, updated: 1, records: [record('r1')] }),
    run: (client) => entity(client).upsert([{ email: 'a@example.com', n: 1 }], { key: ['email'] }),
  },
  {
    name: 'entities: importEntities sends the file as multipart',
    covers: ['entities.*.importEntities'],
    answer: answerWith({ status: 'success', details: null, output: [] }),
    run: (client) => entity(client).importEntities(textFile('todos.csv', 'title\nA\n', 'text/csv')),
  },
  {
    name: 'entities: 404 with message and code',
    covers: ['entities.*.get'],
    answer: answerWith({ message: 'Not found', code: 'NOT_FOUND', detail: 'x' }, 404),
    run: (client) => entity(client).get('missing'),
  },
  {
    name: 'entities: error body in the platform shape { error: { message, code } }',
    covers: ['entities.*.create'],
    answer: answerWith({ error: { message: 'Field title is required', code: 'VALIDATION_ERROR' } }, 422),
    run: (client) => entity(client).create({}),
  },
  {
    name: 'entities: code from the x-base44-connector-error header',
    covers: ['entities.*.list'],
    answer: answerWith({ detail: 'Connector expired' }, 502, { 'x-base44-connector-error': 'CONNECTOR_EXPIRED' }),
    run: (client) => entity(client).list(),
  },
  {
    name: 'entities: a 500 without a body',
    covers: ['entities.*.list'],
    answer: () => ({ status: 500 }),
    run: (client) => entity(client).list(),
  },
  {
    name: 'entities: subscribe joins, delivers changes, leaves',
    covers: ['entities.*.subscribe'],
    config: { token: 'user-token' },
    async run(client, tools) {
      const events: unknown[] = [];
      const stop = entity(client).subscribe((event) => events.push(event));
      await tools.waitForSocket('join', 'entities:app-1:Todo');
      await tools.push('entities:app-1:Todo', {
        type: 'update',
        id: 'r1',
        data: { id: 'r1', title: 'B' },
        timestamp: '2026-01-01T00:00:00.000Z',
      });
      await tools.push('entities:app-1:Todo', {
        type: 'delete',
        data: { id: 'r2' },
        timestamp: '2026-01-01T00:00:01.000Z',
      });
      await tools.until(() => events.length === 2, 'two events');
      stop();
      await tools.waitForSocket('leave', 'entities:app-1:Todo');
      return events;
    },
  },
  {
    name: 'service role: entities carry the service token and name the user',
    covers: ['asServiceRole.entities.*.list', 'asServiceRole.entities.*.filter'],
    config: { token: 'user-token', serviceToken: 'svc-token' },
    answer: answerByPath([['/Todo', { status: 200, body: [record('r1')] }]]),
    async run(client) {
      return [await entity(client.asServiceRole).list(), await entity(client.asServiceRole).filter({ a: 1 })];
    },
  },
  {
    name: 'service role: entity writes and new calls',
    covers: [
      'asServiceRole.entities.*.get',
      'asServiceRole.entities.*.create',
      'asServiceRole.entities.*.update',
      'asServiceRole.entities.*.delete',
      'asServiceRole.entities.*.deleteMany',
      'asServiceRole.entities.*.bulkCreate',
      'asServiceRole.entities.*.updateMany',
      'asServiceRole.entities.*.bulkUpdate',
      'asServiceRole.entities.*.count',
      'asServiceRole.entities.*.aggregate',
      'asServiceRole.entities.*.upsert',
      'asServiceRole.entities.*.importEntities',
    ],
    config: { serviceToken: 'svc-token' },
    answer: answerWith({ count: 1, rows: [], truncated: false }),
    async run(client) {
      const todo = entity(client.asServiceRole);
      return [
        await todo.get('r1'),
        await todo.create({ a: 1 }),
        await todo.update('r1', { a: 2 }),
        await todo.delete('r1'),
        await todo.deleteMany({ a: 2 }),
        await todo.bulkCreate([{ a: 3 }]),
        await todo.updateMany({ a: 3 }, { $set: { a: 4 } }),
        await todo.bulkUpdate([{ id: 'r1', a: 5 }]),
        await todo.count({ a: 5 }),
        await todo.aggregate({ count: true }),
        await todo.upsert([{ a: 6 }], { key: 'a' }),
        await todo.importEntities(textFile('a.json', '[]', 'application/json')),
      ];
    },
  },
  {
    name: 'service role: subscribe',
    covers: ['asServiceRole.entities.*.subscribe'],
    config: { serviceToken: 'svc-token' },
    deviation: serviceRoleSocket,
    async run(client, tools) {
      const events: unknown[] = [];
      const stop = entity(client.asServiceRole).subscribe((event) => events.push(event));
      await tools.waitForSocket('join', 'entities:app-1:Todo');
      await tools.push('entities:app-1:Todo', { type: 'create', id: 'r3', data: { id: 'r3' }, timestamp: 't' });
      await tools.until(() => events.length === 1, 'one event');
      stop();
      await tools.waitForSocket('leave', 'entities:app-1:Todo');
      return events;
    },
  },
);

export const entitySocketRows = rows({
  name: 'entities: an anonymous subscription names the visitor in the handshake',
  covers: ['entities.*.subscribe'],
  async run(client, tools) {
    const stop = entity(client).subscribe(() => undefined);
    await tools.waitForSocket('join', 'entities:app-1:Todo');
    stop();
    await tools.waitForSocket('leave', 'entities:app-1:Todo');
    return 'subscribed';
  },
  deviation: {
    id: 'anonymous-socket-without-null-token',
    adjust(reference) {
      const adjusted = structuredClone(reference);
      for (const handshake of adjusted.handshakes) delete handshake.query.token;
      return adjusted;
    },
  },
});
