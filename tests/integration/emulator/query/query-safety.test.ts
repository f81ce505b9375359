import { serviceTokenFor } from '@/tests/support/emulator';

import { killHard, startCli, type RunningCli } from '../cli-process';

/**
 * Queries that must not stall or escape the engine. The emulator runs as a child process, so a
 * catastrophic regex there makes these requests time out instead of freezing the test runner.
 */

jest.setTimeout(60_000);

const APP = 'coming-soon';
const SERVICE = serviceTokenFor(APP);
/** Generous: a linear engine answers in milliseconds, a backtracking one takes minutes or more. */
const REQUEST_BUDGET_MS = 15_000;
let cli: RunningCli;

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> | Record<string, unknown>[] }> {
  const response = await fetch(`${cli.url}/api/apps/${APP}/entities/${path}`, {
    method,
    headers: { Authorization: `Bearer ${SERVICE}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_BUDGET_MS),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const filter = (q: unknown) => call('GET', `Victim?q=${encodeURIComponent(JSON.stringify(q))}&limit=100`);

beforeAll(async () => {
  cli = await startCli();
  const created = await call('POST', 'Victim/bulk', [
    { name: `${'a'.repeat(40)}!`, tags: [`${'a'.repeat(40)}!`] },
    { name: `${'x'.repeat(5000)}y`, tags: [`${'x'.repeat(5000)}y`] },
    { name: 'aaaa', tags: ['aaaa'] },
  ]);
  expect(created.status).toBe(201);
});
afterAll(() => killHard(cli.child));

describe('regular expressions run in linear time', () => {
  it.each([
    ['nested quantifiers', { name: { $regex: '(a+)+$' } }, 1],
    ['a dozen stacked wildcards', { name: { $regex: '^(.*.*.*.*.*.*.*.*.*.*.*.*)x$' } }, 0],
    ['with $options', { name: { $regex: '(A+)+$', $options: 'i' } }, 1],
    ['under $not', { name: { $not: { $regex: '(a+)+$' } } }, 2],
    ['inside $elemMatch', { tags: { $elemMatch: { $regex: '^(.*.*.*.*.*.*.*.*.*.*.*.*)x$' } } }, 0],
    ['inside $or', { $or: [{ name: { $regex: '(a|aa)+$' } }, { tags: { $regex: '(x+x+)+y' } }] }, 2],
  ])('answers %s promptly and correctly', async (_name, q, expected) => {
    const { status, body } = await filter(q);
    expect(status).toBe(200);
    expect(body).toHaveLength(expected);
  });

  it('also in the condition of an updateMany $pull', async () => {
    const pulled = await call('PATCH', 'Victim/update-many', {
      query: { name: 'aaaa' },
      data: { $pull: { tags: { $regex: '(a+)+$' } } },
    });
    expect(pulled.body).toEqual({ success: true, updated: 1, has_more: false });
    const pullAll = await call('PATCH', 'Victim/update-many', {
      query: {},
      data: { $pull: { tags: { $regex: '(a+)+$' } } },
    });
    expect(pullAll.status).toBe(200);
    const stored = (await filter({ name: 'aaaa' })).body as Record<string, unknown>[];
    expect(stored[0]?.tags).toEqual([]);
    const unsafe = await call('PATCH', 'Victim/update-many', {
      query: {},
      data: { $pull: { tags: { $where: 'true' } } },
    });
    expect(unsafe.status).toBe(400);
  });

  it('keeps serving other requests', async () => {
    await filter({ name: { $regex: '(a+)+$' } });
    const { status } = await call('GET', 'Victim?limit=1');
    expect(status).toBe(200);
  });

  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', 'a(?=b)'],
  ])('refuses %s, which needs backtracking, with 400', async (_name, pattern) => {
    const { status, body } = await filter({ name: { $regex: pattern } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_filter' });
  });
});

describe('deeply nested filters', () => {
  const nest = (wrap: (inner: string) => string, levels: number) => {
    let condition = '{"$eq":1}';
    for (let level = 0; level < levels; level += 1) condition = wrap(condition);
    return `{"name":${condition}}`;
  };

  it.each([
    ['$not', (inner: string) => `{"$not":${inner}}`],
    ['$elemMatch', (inner: string) => `{"$elemMatch":${inner}}`],
    ['$or', (inner: string) => `{"$or":[{"name":${inner}}]}`],
  ])('refuses %s nested too deep with 400 instead of overflowing the stack', async (_name, wrap) => {
    // In a URL (which the server caps at 16 KB) and 100,000 levels deep in a deleteMany body.
    expect((await filter(JSON.parse(nest(wrap, 200)) as unknown)).status).toBe(400);
    const deleted = await fetch(`${cli.url}/api/apps/${APP}/entities/Victim`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${SERVICE}`, 'Content-Type': 'application/json' },
      body: nest(wrap, 100_000),
      signal: AbortSignal.timeout(REQUEST_BUDGET_MS),
    });
    expect(deleted.status).toBe(400);
    expect((await call('GET', 'Victim?limit=100')).body).toHaveLength(3);
  });
});

describe('operators that run code or are unknown', () => {
  it.each([
    ['$where', { $where: 'sleep(100000) || true' }],
    ['$where', { name: { $where: 'true' } }],
    ['$expr', { $expr: { $function: { body: 'while(true){}', args: [], lang: 'js' } } }],
    ['$function', { name: { $function: { body: 'return true', args: [], lang: 'js' } } }],
    ['$accumulator', { name: { $accumulator: {} } }],
    ['$text', { $text: { $search: 'a' } }],
    ['$near', { name: { $near: [0, 0] } }],
  ])('answers %s with a 400 that names it, in lists and in deleteMany', async (operator, q) => {
    const listed = await filter(q);
    expect(listed.status).toBe(400);
    expect(listed.body).toMatchObject({
      code: 'invalid_filter',
      message: expect.stringContaining(operator) as unknown,
    });
    const deleted = await call('DELETE', 'Victim', q);
    expect(deleted.status).toBe(400);
    expect((await call('GET', 'Victim?limit=100')).body).toHaveLength(3);
  });
});
