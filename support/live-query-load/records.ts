/**
 * What the live-query benchmarks share: the app they run in, a seeded data set made through the
 * SDK's `bulkCreate`, a deterministic random sequence, a raw live-query socket, and waiting.
 */
import { io, type Socket } from 'socket.io-client';

import type { EntityHandler } from '../../lib/sdk';
import { seededRandom } from '../seeded-random';

export const APP_ID = 'coming-soon';

/**
 * An entity the benchmark declares in its project folder (emulator-process.ts), as a real app
 * declares its entities: writes are checked against the schema and the query planner indexes
 * its fields (emulator/query/indexes/).
 */
export interface BenchEntity {
  name: string;
  type: 'object';
  properties: Record<string, { type?: string | string[]; items?: { type: string } }>;
}

/** A declared entity of numbers and strings (`fields`: name to JSON Schema type). */
export function benchEntity(name: string, fields: Record<string, string | string[]>): BenchEntity {
  const properties: BenchEntity['properties'] = {};
  for (const [field, type] of Object.entries(fields))
    properties[field] = type === 'array' ? { type, items: { type: 'string' } } : { type };
  return { name, type: 'object', properties };
}
export const SERVICE = { token: `service-token-${APP_ID}` };
const BULK = 5000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** A number below `below`, the same sequence on every run, so every run writes the same thing. */
export function randomFrom(seed: number): (below: number) => number {
  const random = seededRandom(seed);
  return (below) => random.uint() % below;
}

/** Creates `count` records in bulk (a few calls); answers their ids in order. */
export async function seedRecords<T extends object>(
  items: EntityHandler<T>,
  count: number,
  make: (at: number) => Partial<T>,
): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < count; from += BULK) {
    const batch = Array.from({ length: Math.min(BULK, count - from) }, (_, at) => make(from + at));
    ids.push(...(await items.bulkCreate(batch)).map((record) => record.id));
  }
  return ids;
}

/**
 * A raw socket.io connection to the emulator's live queries as `token`, as a client that sends its
 * own `subscribe_query` messages would open it (distinct query ids, no SDK in between); answers once
 * connected.
 */
export async function liveQuerySocket(url: string, token: string): Promise<Socket> {
  const socket = io(url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    query: { app_id: APP_ID, token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}
