/**
 * The client's memory per watch: the heap a client holds for 1,000 more distinct watches, each with
 * a result of 10 records, after garbage collection, the socket and the real-time code already
 * loaded by a first watch (ended before measuring). The emulator runs in another process, so only the client is measured.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { createClient } from '../../lib/sdk';
import { benchEntity, waitUntil } from './records';

const APP_ID = 'coming-soon';
const SERVICE = { token: `service-token-${APP_ID}` };
export const MEMORY_WATCHES = 1000;
const RECORDS_PER_RESULT = 10;
export const MEMORY_ENTITY = benchEntity('MemoryBench', { title: 'string', rank: 'number' });

export interface MemoryReport {
  watches: number;
  recordsPerResult: number;
  bytesPerWatch: number;
}

/** A full collection, made reachable without starting Node with --expose-gc. */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export async function measureMemory(url: string): Promise<MemoryReport> {
  const entity = 'MemoryBench';
  const client = createClient({ serverUrl: url, appId: APP_ID, ...SERVICE });
  try {
    const items = client.entity<{ title: string; rank: number }>(entity);
    await items.bulkCreate(Array.from({ length: 40 }, (_, rank) => ({ title: `record number ${rank}`, rank })));
    let first = 0;
    const warmUp = items.watch({ limit: 1 }, () => (first += 1));
    await waitUntil(() => first > 0, 10_000, 'the first watch');
    // Its query ends (after the grace period) so that the 1,000 fit the server's limit per socket.
    warmUp();
    await new Promise((resolve) => setTimeout(resolve, 500));
    collect();
    const before = process.memoryUsage().heapUsed;
    let results = 0;
    for (let at = 0; at < MEMORY_WATCHES; at += 1) {
      // Distinct queries (no two share a server subscription), each with 10 records in its result.
      const filter = { rank: { $gte: at % 30 }, title: { $ne: `none-${at}` } };
      let counted = false;
      items.watch({ filter, sort: at % 2 ? 'rank' : '-rank', limit: RECORDS_PER_RESULT }, () => {
        if (!counted) results += 1;
        counted = true;
      });
    }
    await waitUntil(() => results === MEMORY_WATCHES, 30_000, 'every result');
    collect();
    const after = process.memoryUsage().heapUsed;
    return {
      watches: MEMORY_WATCHES,
      recordsPerResult: RECORDS_PER_RESULT,
      bytesPerWatch: (after - before) / MEMORY_WATCHES,
    };
  } finally {
    client.cleanup();
  }
}
