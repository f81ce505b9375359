/**
 * `watch()` of our SDK against one backend of the differential suite. On our emulator the server
 * holds the live query; the vendor's `base44 dev` knows no `subscribe_query` (its socket sends every
 * change of an entity to everyone in the room), so there the client's fallback keeps the result
 * (docs/LIVE-QUERIES.md). Either way every snapshot must end equal to a fresh `filter()` of the
 * same caller on the same backend, and never hold a record or field that caller may not read.
 */
import { createClient, type EntityRecord, type PlatformClient, type WatchOptions, type WatchSnapshot } from '@/lib/sdk';

import type { Actor, Backend } from './backends';
import { APP_ID } from './project';

type Row = EntityRecord<Record<string, unknown>>;

export interface WatchRun {
  snapshots: WatchSnapshot<Row>[];
  /**
   * Settles once the watch has joined its room (`onJoin`): its query is on the socket and its first
   * result on the way. Before that the time goes to this process, not to the backend (see `settles`).
   */
  joined: Promise<void>;
  /** What the watch's `onError` heard (a failed load, a refused query), for the failure message. */
  errors: string[];
  /** GET requests for the watched entity's list, made by the watching client. */
  readonly listLoads: number;
  client: PlatformClient;
  stop(): void;
}

export function watchOn(backend: Backend, actor: Actor, entity: string, options: WatchOptions): WatchRun {
  const snapshots: WatchSnapshot<Row>[] = [];
  let listLoads = 0;
  const counting: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if ((init?.method ?? 'GET') === 'GET' && url.pathname.endsWith(`/entities/${entity}`)) listLoads += 1;
    return fetch(input, init);
  };
  const client = createClient({ serverUrl: backend.url, appId: APP_ID, token: backend.token(actor), fetch: counting });
  const errors: string[] = [];
  let onJoin = () => {};
  const joined = new Promise<void>((resolve) => (onJoin = resolve));
  const stop = client.entity(entity).watch(options, (snapshot) => snapshots.push(snapshot), {
    onJoin,
    onError: (error) => errors.push(error.message),
  });
  return {
    snapshots,
    joined,
    errors,
    get listLoads() {
      return listLoads;
    },
    client,
    stop: () => {
      stop();
      client.cleanup();
    },
  };
}

/**
 * The SDK loads its real-time code on a process's first `watch()`, as a page does. Under Jest that
 * first load also transforms those modules and, under --coverage, instruments them: with a cold
 * transform cache (every fresh clone) on a busy machine it blocked this process for 10 s and more.
 * Inside a scenario that pause ran out its deadlines before the watch had joined (`vendor: undefined
 * != [...]`) and left the reads' pooled keep-alive connections to servers that had closed them
 * meanwhile (`fetch failed`, ECONNRESET). Loaded before the scenarios, it costs them nothing.
 */
export async function loadRealtimeCode(): Promise<void> {
  await import('@/lib/sdk/realtime/socket/realtime.lazy');
}

/** How long a joined watch may take to show what a fresh read shows: the backend's time only. */
const SETTLE_MS = 10_000;
/** Bounds the wait for the join only so that a watch that never joins fails with its errors. */
const JOIN_MS = 60_000;

/**
 * Waits until the watch has joined its room: until then the time goes to this process (loading the
 * real-time code, opening the socket), not to the backend whose answer `settles` times.
 */
async function joinedRoom(backend: Backend, run: WatchRun): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error(`${backend.name}: the watch never joined its room (errors: ${JSON.stringify(run.errors)})`)),
      JOIN_MS,
    );
  });
  try {
    await Promise.race([run.joined, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits until the latest snapshot equals a fresh `filter()` (by a client that counts nothing), from
 * the moment the watch has joined its room.
 */
export async function settles(backend: Backend, actor: Actor, entity: string, run: WatchRun, options: WatchOptions) {
  await joinedRoom(backend, run);
  const reader = createClient({ serverUrl: backend.url, appId: APP_ID, token: backend.token(actor) });
  const { filter, sort, limit, fields } = options;
  const deadline = Date.now() + SETTLE_MS;
  let expected: Row[] = [];
  try {
    for (;;) {
      expected = await reader.entity(entity).filter(filter ?? {}, sort, limit, 0, fields);
      if (JSON.stringify(run.snapshots.at(-1)?.entities) === JSON.stringify(expected)) return expected;
      if (Date.now() > deadline) {
        const seen = `${run.snapshots.length} snapshots, ${run.listLoads} list loads, errors: ${JSON.stringify(run.errors)}`;
        throw new Error(
          `${backend.name}: ${JSON.stringify(run.snapshots.at(-1)?.entities)} != ${JSON.stringify(expected)} (${seen})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    reader.cleanup();
  }
}

async function created(
  backend: Backend,
  actor: Actor,
  entity: string,
  fields: Record<string, unknown>,
): Promise<string> {
  const answer = await backend.request(actor, 'POST', `/entities/${entity}`, fields);
  const id = (answer.body as { id?: unknown }).id;
  if (answer.status >= 300 || typeof id !== 'string')
    throw new Error(`${backend.name}: creating ${entity} answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return id;
}

/**
 * A window of three open tasks by estimate: a record entering at the top, one leaving the filter,
 * a delete that slides the next one in, a record behind the window. Returns the run for its counts.
 */
export async function followTaskWindow(backend: Backend): Promise<WatchRun> {
  await backend.request('service', 'DELETE', '/entities/Task', {});
  const options: WatchOptions = { filter: { done: false }, sort: 'estimate', limit: 3 };
  const ids: string[] = [];
  for (const estimate of [5, 10, 15, 20])
    ids.push(await created(backend, 'admin', 'Task', { title: `e${estimate}`, estimate }));
  const run = watchOn(backend, 'admin', 'Task', options);
  try {
    const settled = () => settles(backend, 'admin', 'Task', run, options);
    await settled();
    await created(backend, 'admin', 'Task', { title: 'e1', estimate: 1 });
    await settled();
    await backend.request('admin', 'PUT', `/entities/Task/${ids[0]}`, { done: true });
    await settled();
    await backend.request('admin', 'DELETE', `/entities/Task/${ids[1]}`);
    await settled();
    await created(backend, 'admin', 'Task', { title: 'e100', estimate: 100 });
    await settled();
    return run;
  } finally {
    run.stop();
  }
}

/** Owner-only notes: the user's watch never holds the admin's note, whatever the socket carries. */
export async function followOwnNotes(backend: Backend): Promise<WatchRun> {
  const options: WatchOptions = { sort: 'title' };
  const run = watchOn(backend, 'user', 'Note', options);
  try {
    await settles(backend, 'user', 'Note', run, options);
    await created(backend, 'admin', 'Note', { title: 'admin note', secret: 'admin secret' });
    await created(backend, 'user', 'Note', { title: 'user note', secret: 'user secret' });
    await settles(backend, 'user', 'Note', run, options);
    return run;
  } finally {
    run.stop();
  }
}
