/**
 * Our client typed by the vendor CLI's generated file: `npm test` runs `base44 types generate`
 * (base44/entities/todo.jsonc -> base44/.types/types.d.ts) and then checks this file with
 * `tsc -p tests/types/base44`. No schema argument, no cast: `createClient()` alone knows `Todo`.
 * Nothing here runs; the `@ts-expect-error` lines fail the check if the error they expect disappears.
 */
import { expectTypeOf } from 'expect-type';

import { createClient, type EntityFields, type EntityHandler, type EntityRecord } from '@/lib/sdk';

const client = createClient({ appId: 'types-only', serverUrl: '' });

// The fields base44/entities/todo.jsonc declares: `title` required, `done` optional (it has a default).
interface TodoFields {
  title: string;
  done?: boolean;
}

export async function typedByGeneratedFile() {
  // Compiles: a Todo as the entity definition describes it.
  const created = await client.entities.Todo.create({ title: 'Milch kaufen', done: false });
  expectTypeOf(created.title).toEqualTypeOf<string>();
  expectTypeOf(created.id).toEqualTypeOf<string>();

  // List results carry the generated fields.
  const todos = await client.entities.Todo.list('-created_date');
  expectTypeOf(todos).toEqualTypeOf<EntityRecord<TodoFields>[]>();
  expectTypeOf(todos[0]?.done).toEqualTypeOf<boolean | undefined>();

  // @ts-expect-error: `title` is a string in base44/entities/todo.jsonc
  await client.entities.Todo.create({ title: 42 });
  // @ts-expect-error: `done` is a boolean
  await client.entities.Todo.update(created.id, { done: 'ja' });
  // @ts-expect-error: Todo has no field `titel`
  await client.entities.Todo.list('-titel');

  // watch() takes filter()'s typed options and hands over typed records.
  const stop = client.entities.Todo.watch({ filter: { done: false }, sort: 'title', fields: ['title'] }, (snapshot) => {
    expectTypeOf(snapshot.entities).toEqualTypeOf<EntityRecord<TodoFields>[]>();
    expectTypeOf(snapshot.type).toEqualTypeOf<'added' | 'modified' | 'removed'>();
  });
  expectTypeOf(stop).toEqualTypeOf<() => void>();
  // @ts-expect-error: `done` is a boolean
  client.entities.Todo.watch({ filter: { done: 'nein' } }, () => undefined);
  // @ts-expect-error: Todo has no field `titel` to sort by
  client.entities.Todo.watch({ sort: 'titel' }, () => undefined);

  // Names the project does not define stay reachable, untyped, as with the reference client.
  expectTypeOf(client.entities.Anything).toEqualTypeOf<EntityHandler<EntityFields> | undefined>();
}
