import { io, type Socket } from 'socket.io-client';

import type { Json } from '../api';

/**
 * A raw socket.io client of the emulator's live queries (docs/LIVE-QUERIES.md), for the tests that
 * look at the wire: each watch keeps its copy from `subscribed` and the edits of `update_model`
 * alone, with the edit rule spelled out independently of the SDK.
 */

const SOCKET_PATH = '/ws-user-apps/socket.io/';

export type Row = Json & { id: string };

export interface Edit {
  remove: string[];
  put: { index: number; record: Row }[];
}

export interface Watched {
  room: string;
  entities: Row[] | undefined;
  messages: (Json & Edit)[];
  errors: Json[];
}

export function applyEdit(list: readonly Row[], { remove, put }: Edit): Row[] {
  const dropped = new Set([...remove, ...put.map(({ record }) => record.id)]);
  const next = list.filter((row) => !dropped.has(row.id));
  for (const { index, record } of [...put].sort((a, b) => a.index - b.index)) next.splice(index, 0, record);
  return next;
}

export async function connect(url: string, appId: string, token: string | null): Promise<Socket> {
  const socket = io(url, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    forceNew: true,
    query: token ? { app_id: appId, token } : { app_id: appId },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Routes a socket's live-query events to its watches by room (one listener per event, however many watches). */
function watchesOf(socket: Socket): Map<string, Watched> {
  const holder = socket as Socket & { watches?: Map<string, Watched> };
  if (holder.watches) return holder.watches;
  const watches = new Map<string, Watched>();
  holder.watches = watches;
  socket.on('subscribed', (message: Json & { room: string; entities: Row[] }) => {
    const watched = watches.get(message.room);
    if (watched) watched.entities = message.entities;
  });
  socket.on('update_model', (message: { room: string; data: string }) => {
    const watched = watches.get(message.room);
    if (!watched) return;
    const data = JSON.parse(message.data) as Json & Edit;
    watched.messages.push(data);
    watched.entities = applyEdit(watched.entities ?? [], data);
  });
  socket.on('error', (problem: Json) => {
    const watched = typeof problem.room === 'string' ? watches.get(problem.room) : undefined;
    watched?.errors.push(problem);
  });
  return watches;
}

export function watch(socket: Socket, appId: string, entity: string, queryId: string, options: Json): Watched {
  const room = `entities:${appId}:${entity}:watch:${queryId}`;
  const watched: Watched = { room, entities: undefined, messages: [], errors: [] };
  watchesOf(socket).set(room, watched);
  socket.emit('subscribe_query', { app_id: appId, entity_name: entity, query_id: queryId, options });
  return watched;
}

export { eventually } from '@/tests/support/waits';
