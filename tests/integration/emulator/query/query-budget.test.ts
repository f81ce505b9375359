import { serviceTokenFor } from '@/tests/support/emulator';

import { entityPath, query, suiteEmulator, type Json } from '../api';

/**
 * Query budgets (issue 20, item 2): one anonymous filter used to hold the process for seconds
 * (a `$in` of 16,000 strings: 27 s over 20,000 records; an `$or` of 2,000 branches: 7 s). Filters
 * now have size limits checked before any record is read, and the queries of one request a time
 * budget after which it is answered 503 and nothing is changed.
 */

const APP = 'coming-soon';
const ENTITY = 'BudgetRecord';
const token = serviceTokenFor(APP);
const RECORDS = 3000;

const strings = (count: number) => Array.from({ length: count }, (_, index) => `name ${index}`);
const regexBranches = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ name: { $regex: `^(x|y|z)+name ${index}[0-9]*z$` } }));

describe('with the default budget', () => {
  const suite = suiteEmulator();

  beforeAll(async () => {
    const records = Array.from({ length: RECORDS }, (_, index) => ({ name: `name ${index}`, n: index }));
    expect((await suite.api('POST', entityPath(APP, ENTITY, '/bulk'), { json: records, token })).status).toBe(201);
  });

  it('refuses an anonymous $in of 16,000 values, naming the limit', async () => {
    // As an aggregate: a GET this long is refused by Node's header limit (431) before it reaches us.
    const spec = { query: { name: { $in: strings(16_000) } }, count: true };
    const { status, body } = await suite.api('POST', entityPath(APP, ENTITY, '/aggregate'), { json: spec });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_filter', message: expect.stringContaining('at most 1000 values') });
  });

  it('refuses an anonymous aggregate whose $or has 2,000 branches', async () => {
    const spec = { query: { $or: strings(2000).map((name) => ({ name })) }, count: true };
    const { status, body } = await suite.api('POST', entityPath(APP, ENTITY, '/aggregate'), { json: spec });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_filter', message: expect.stringContaining('at most 100 conditions') });
  });

  it('refuses a filter with too many conditions in all, however they are nested', async () => {
    const wide = { $and: Array.from({ length: 30 }, () => ({ $or: strings(80).map((name) => ({ name })) })) };
    const { status, body } = await suite.api('POST', entityPath(APP, ENTITY, '/aggregate'), {
      json: { query: wide, count: true },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_filter', message: expect.stringContaining('2000 conditions') });
  });

  it('answers a $in at the limit with the right records', async () => {
    const wanted = strings(1000).filter((_, index) => index % 3 === 0);
    const { status, body } = await suite.api<Json[]>(
      'GET',
      entityPath(APP, ENTITY) + query({ q: { name: { $in: wanted } }, limit: 10_000 }),
    );
    expect(status).toBe(200);
    expect(body.map((record) => record.name).sort()).toEqual([...wanted].sort());
  });
});

describe('with a short time budget', () => {
  const suite = suiteEmulator({ queryBudgetMs: 25 });

  let firstId: string;

  beforeAll(async () => {
    const records = Array.from({ length: RECORDS }, (_, index) => ({ name: `name ${index}`, n: index }));
    const created = await suite.api<Json[]>('POST', entityPath(APP, ENTITY, '/bulk'), { json: records, token });
    expect(created.status).toBe(201);
    firstId = created.body[0]?.id as string;
  });

  it('answers 503 to a list that outlives it', async () => {
    const { status, body } = await suite.api(
      'GET',
      entityPath(APP, ENTITY) + query({ q: { $or: regexBranches(100) } }),
    );
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: 'query_time_budget_exceeded', message: expect.stringContaining('25 ms') });
  });

  // Each of these reads its body first: the queries after that await run on the request's clock too.
  it('answers 503 to an aggregate that outlives it', async () => {
    const spec = { query: { $or: regexBranches(100) }, count: true };
    const { status, body } = await suite.api('POST', entityPath(APP, ENTITY, '/aggregate'), { json: spec, token });
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: 'query_time_budget_exceeded' });
  });

  it('changes nothing when an updateMany outlives it', async () => {
    const doomed = await suite.api('PATCH', entityPath(APP, ENTITY, '/update-many'), {
      json: { query: { $or: [...regexBranches(99), { n: { $gte: 0 } }] }, data: { $set: { name: 'changed' } } },
      token,
    });
    expect(doomed.status).toBe(503);
    // Read by id: any query over the 3,000 records might itself outlive so short a budget.
    const { body } = await suite.api('GET', entityPath(APP, ENTITY, `/${firstId}`), { token });
    expect(body).toMatchObject({ name: 'name 0' });
  });

  it('deletes nothing when a deleteMany outlives it', async () => {
    const doomed = await suite.api('DELETE', entityPath(APP, ENTITY), {
      json: { $or: [...regexBranches(99), { n: { $gte: 0 } }] },
      token,
    });
    expect(doomed.status).toBe(503);
    const { body } = await suite.api<{ count: number }>('GET', entityPath(APP, ENTITY, '/count'), { token });
    expect(body).toEqual({ count: RECORDS });
  });
});
