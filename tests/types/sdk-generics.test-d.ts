/**
 * Type tests for the SDK's public generics, checked by `tsc --noEmit` (the typecheck step of
 * `npm test`): a wrong inference or a key the types should refuse fails the build, not a user.
 * Nothing here runs; the `@ts-expect-error` lines fail the check if the error they expect disappears.
 */
import { expectTypeOf } from 'expect-type';

import {
  createClient,
  type EntitiesModule,
  type EntityFields,
  type EntityRecord,
  type PlatformClient,
  type SortKey,
} from '@/lib/sdk';

interface Todo {
  title: string;
  done: boolean;
  priority?: number;
}
interface Schema {
  Todo: Todo;
  Note: { body: string };
}

declare const client: ReturnType<typeof createClient<Schema>>;

// createClient<S>: each entity of the schema is typed by its own fields.
expectTypeOf(client.entities.Todo.get).returns.resolves.toEqualTypeOf<EntityRecord<Todo>>();
expectTypeOf(client.entities.Note.list('-body')).resolves.toEqualTypeOf<EntityRecord<{ body: string }>[]>();
// With an options object, list answers a cursor page of the same records.
expectTypeOf(client.entities.Note.list({ limit: 10 }))
  .resolves.toHaveProperty('items')
  .toEqualTypeOf<EntityRecord<{ body: string }>[]>();
expectTypeOf<EntityRecord<Todo>['id']>().toEqualTypeOf<string>();
expectTypeOf<EntityRecord<Todo>['done']>().toEqualTypeOf<boolean>();
// @ts-expect-error: an entity the schema does not declare
void client.entities.Invoice;
// @ts-expect-error: a field of the wrong type
void client.entities.Todo.create({ title: 42 });
void client.entities.Todo.create({ title: 'ok' });

// The service role sees the same schema.
expectTypeOf(client.asServiceRole.entities.Todo.get).returns.resolves.toEqualTypeOf<EntityRecord<Todo>>();

// EntitiesModule<S>: exactly the schema's names.
expectTypeOf<keyof EntitiesModule<Schema>>().toEqualTypeOf<'Todo' | 'Note'>();

// SortKey<T>: a field name of the record (own fields and metadata), optionally with a leading "-" or "+"
// (the reference's SortField).
expectTypeOf<'title'>().toExtend<SortKey<Todo>>();
expectTypeOf<'-created_date'>().toExtend<SortKey<Todo>>();
expectTypeOf<'-priority'>().toExtend<SortKey<Todo>>();
expectTypeOf<'titel'>().not.toExtend<SortKey<Todo>>();
expectTypeOf<'+title'>().toExtend<SortKey<Todo>>();
expectTypeOf<'*title'>().not.toExtend<SortKey<Todo>>();
void client.entities.Todo.list('-title');
// @ts-expect-error: not a field of Todo
void client.entities.Todo.list('-titel');

// Without a schema, any entity name works and records are untyped field maps.
expectTypeOf<NonNullable<PlatformClient['entities']['Anything']>['get']>().returns.resolves.toEqualTypeOf<
  EntityRecord<EntityFields>
>();
