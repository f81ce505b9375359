/**
 * The request sequences both backends receive. A row's steps run in order as the named caller;
 * `save` keeps the answer's `id` for later paths (`{name}`). Rows that would leave records the
 * other rows could see filter by their own titles, so the rows stay independent of each other.
 * A row with `deviation` names a row of docs/EMULATOR-DEVIATIONS.md ("Differential") and states in
 * `differs` exactly how the two answers differ; any other difference fails it too.
 */
import type { Actor } from './backends';

export interface Step {
  actor: Actor;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  save?: string;
}

/** One normalised answer (or the events a subscriber received). */
export interface Seen {
  status: number;
  body: unknown;
}

export interface Row {
  name: string;
  steps: Step[];
  /** Subscribe as `actor` to the entity's room before the steps; the events are compared last. */
  realtime?: { actor: Actor; entity: string };
  deviation?: { id: string; differs(vendor: Seen[], ours: Seen[]): void };
}

const q = (query: object) => `q=${encodeURIComponent(JSON.stringify(query))}`;

export const ROWS: Row[] = [
  {
    name: 'create, get, update, list and delete a record',
    steps: [
      { actor: 'admin', method: 'POST', path: '/entities/Board', body: { title: 'crud-1' }, save: 'board' },
      { actor: 'admin', method: 'GET', path: '/entities/Board/{board}' },
      { actor: 'admin', method: 'PUT', path: '/entities/Board/{board}', body: { done: true } },
      { actor: 'user', method: 'GET', path: `/entities/Board?${q({ title: 'crud-1' })}` },
      { actor: 'admin', method: 'DELETE', path: '/entities/Board/{board}' },
      { actor: 'admin', method: 'GET', path: `/entities/Board?${q({ title: 'crud-1' })}` },
    ],
  },
  {
    name: 'bulk create, then list sorted and limited',
    steps: [
      {
        actor: 'user',
        method: 'POST',
        path: '/entities/Board/bulk',
        body: [{ title: 'bulk-b' }, { title: 'bulk-a' }, { title: 'bulk-c' }],
      },
      {
        actor: 'user',
        method: 'GET',
        path: `/entities/Board?${q({ title: { $in: ['bulk-a', 'bulk-b', 'bulk-c'] } })}&sort=title&limit=2`,
      },
      {
        actor: 'user',
        method: 'GET',
        path: `/entities/Board?${q({ title: { $in: ['bulk-a', 'bulk-b', 'bulk-c'] } })}&sort=-title&skip=1&fields=title`,
      },
    ],
  },
  {
    name: 'the service role reads and writes every record',
    steps: [
      { actor: 'user', method: 'POST', path: '/entities/Note', body: { title: 'service-1' }, save: 'note' },
      { actor: 'service', method: 'GET', path: '/entities/Note/{note}' },
      { actor: 'service', method: 'PUT', path: '/entities/Note/{note}', body: { priority: 3 } },
      { actor: 'service', method: 'GET', path: `/entities/Note?${q({ title: 'service-1' })}` },
    ],
  },
  {
    name: 'a function answers as the caller and reads as the service role',
    steps: [
      { actor: 'admin', method: 'POST', path: '/entities/Note', body: { title: 'fn-admin' } },
      { actor: 'user', method: 'POST', path: '/entities/Note', body: { title: 'fn-user' } },
      { actor: 'user', method: 'POST', path: '/functions/whoAmI', body: {} },
      { actor: 'admin', method: 'POST', path: '/functions/whoAmI', body: {} },
    ],
  },
  {
    name: 'the current user',
    steps: [
      { actor: 'user', method: 'GET', path: '/entities/User/me' },
      { actor: 'admin', method: 'GET', path: '/entities/User/me' },
    ],
  },
  {
    name: 'a subscriber receives the changes of a room',
    realtime: { actor: 'admin', entity: 'Board' },
    steps: [
      { actor: 'admin', method: 'POST', path: '/entities/Board', body: { title: 'live-1' }, save: 'board' },
      { actor: 'admin', method: 'PUT', path: '/entities/Board/{board}', body: { title: 'live-2' } },
      { actor: 'admin', method: 'DELETE', path: '/entities/Board/{board}' },
    ],
  },
  {
    name: 'a required field is missing',
    steps: [{ actor: 'user', method: 'POST', path: '/entities/Board', body: { done: true } }],
  },
  {
    name: 'a field of the wrong type',
    steps: [{ actor: 'user', method: 'POST', path: '/entities/Board', body: { title: 'typed', done: 'yes' } }],
  },
  {
    name: 'fields outside the schema are dropped, defaults applied',
    steps: [{ actor: 'user', method: 'POST', path: '/entities/Note', body: { title: 'schema-1', junk: 1 } }],
  },
  {
    name: 'an entity the project does not define',
    steps: [{ actor: 'user', method: 'GET', path: '/entities/Nothing' }],
  },
  {
    name: 'row-level security: each user sees only their own notes',
    steps: [
      { actor: 'admin', method: 'POST', path: '/entities/Note', body: { title: 'rls-admin' }, save: 'adminNote' },
      { actor: 'user', method: 'POST', path: '/entities/Note', body: { title: 'rls-user' } },
      { actor: 'user', method: 'GET', path: `/entities/Note?${q({ title: { $in: ['rls-admin', 'rls-user'] } })}` },
      { actor: 'user', method: 'GET', path: '/entities/Note/{adminNote}' },
      { actor: 'user', method: 'PUT', path: '/entities/Note/{adminNote}', body: { title: 'taken' } },
      { actor: 'user', method: 'DELETE', path: '/entities/Note/{adminNote}' },
      { actor: 'anonymous', method: 'GET', path: `/entities/Note?${q({ title: 'rls-admin' })}` },
    ],
  },
  {
    name: 'field-level security: the secret only for its owner',
    steps: [
      { actor: 'service', method: 'POST', path: '/entities/Note', body: { title: 'fls-1', secret: 's3' }, save: 'n' },
      { actor: 'service', method: 'GET', path: '/entities/Note/{n}' },
    ],
  },
];
