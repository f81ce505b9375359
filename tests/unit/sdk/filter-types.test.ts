/**
 * Typed entity queries: at least as precise as the reference's `EntityFilterQuery<T>`. The checks are
 * compile-time (`npx tsc --noEmit` fails if a `@ts-expect-error` line stops being an error); the
 * runtime part proves the typed calls send the query unchanged.
 */
import { createClient } from '@/lib/sdk/client/create-client';
import type { EntityFilter, EntityFilterQuery, SortKey } from '@/lib/sdk/core/types';

interface Todo {
  title: string;
  done: boolean;
  priority: number;
  tags: string[];
  owner: string | null;
}

const typedQueries: EntityFilter<Todo>[] = [
  { done: false, priority: { $gte: 2, $not: { $eq: 5 } } },
  { title: { $regex: '^a' }, tags: { $all: ['x'], $size: 1 } },
  { $or: [{ owner: null }, { owner: { $in: ['a@example.com'] } }], $nor: [{ done: true }] },
  { created_date: { $gt: '2026-01-01' }, id: { $nin: ['r1'] } },
  { priority: [1, 2] },
];

const sorts: SortKey<Todo>[] = ['title', '-priority', '+created_date'];

export function compileTimeChecks(query: EntityFilterQuery<Todo>): void {
  // @ts-expect-error an unknown field
  const unknownField: EntityFilter<Todo> = { colour: 'red' };
  // @ts-expect-error a value of the wrong type
  const wrongType: EntityFilter<Todo> = { done: 'yes' };
  // @ts-expect-error $regex only on string fields
  const regexOnNumber: EntityFilter<Todo> = { priority: { $regex: '1' } };
  // @ts-expect-error $all only on array fields
  const allOnString: EntityFilter<Todo> = { title: { $all: ['a'] } };
  // @ts-expect-error $in takes values of the field's type
  const wrongIn: EntityFilter<Todo> = { priority: { $in: ['high'] } };
  // @ts-expect-error not a field to sort by
  const wrongSort: SortKey<Todo> = '-colour';
  void [unknownField, wrongType, regexOnNumber, allOnString, wrongIn, wrongSort, query];
}

it('typed filters, cursor options and counts go on the wire unchanged', async () => {
  const sent: string[] = [];
  const client = createClient<{ Todo: Todo }>({
    serverUrl: 'https://platform.example',
    appId: 'app',
    token: null,
    fetch: async (input) => {
      sent.push(String(input));
      return new Response(JSON.stringify({ items: [], next_cursor: null, has_more: false, count: 0 }), {
        headers: { 'Content-Type': 'application/json' },
      });
    },
  });
  for (const query of typedQueries) await client.entities.Todo.filter(query, sorts[1]);
  const page = await client.entities.Todo.list({ sort: '-priority', fields: ['title'], limit: 5 });
  const values = await client.entities.Todo.list({ distinct: 'owner' });
  await client.entities.Todo.count({ done: false });
  expect(page.has_more).toBe(false);
  expect(values.items).toEqual([]);
  expect(sent.map((url) => new URL(url).searchParams.get('q'))).toEqual([
    ...typedQueries.map((query) => JSON.stringify(query)),
    null,
    null,
    JSON.stringify({ done: false }),
  ]);
});
