/**
 * @jest-environment node
 *
 * Benchmark (a)'s floors (support/live-query-load/http-floor.ts, bare-http-server.mjs) with the real
 * bare server and real socket.io clients: the I/O floor must write the frames it is asked for, each
 * an `update_model` with a live query's edit carrying the created record, or it would
 * measure less than a delivery costs (docs/LIVE-QUERIES.md: `data` is the JSON of the edit). Figures
 * are not tested here (`npm run bench` prints them).
 */
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';

import { REPOSITORY_ROOT } from '@/emulator/start/cli';
import { startMeasuredServer, type MeasuredServer } from '@/support/live-query-load/emulator-process';
import { startHttpFloor } from '@/support/live-query-load/http-floor';
import { waitUntil } from '@/support/live-query-load/records';

jest.setTimeout(60_000);

const BARE_SERVER = path.join(REPOSITORY_ROOT, 'support', 'live-query-load', 'bare-http-server.mjs');

interface Heard {
  room: unknown;
  /** The parsed `data`. */
  update: unknown;
}

async function create(server: MeasuredServer, frames: number, record: Record<string, unknown>) {
  const answer = await fetch(`${server.url}/api/apps/floor/entities/Item?frames=${frames}`, {
    method: 'POST',
    body: JSON.stringify(record),
    headers: { 'content-type': 'application/json' },
  });
  return (await answer.json()) as Record<string, unknown>;
}

describe('the bare server of the floors', () => {
  let server: MeasuredServer;
  const clients: Socket[] = [];
  const heard: Heard[][] = [];

  beforeAll(async () => {
    server = await startMeasuredServer('The bare HTTP server', [BARE_SERVER]);
    const socketsUrl = await fetch(server.url).then((answer) => answer.text());
    for (let at = 0; at < 3; at += 1) {
      const client = io(socketsUrl, { transports: ['websocket'], forceNew: true, reconnection: false });
      const mine: Heard[] = [];
      client.on('update_model', (payload: { room?: unknown; data?: unknown }) =>
        mine.push({ room: payload.room, update: JSON.parse(String(payload.data)) as unknown }),
      );
      clients.push(client);
      heard.push(mine);
    }
    await waitUntil(() => clients.every((client) => client.connected), 20_000, 'the sockets');
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await server?.stop();
  });

  it('answers a create alone when no frames are asked for', async () => {
    const record = await create(server, 0, { bucket: 1, stamp: 7 });
    expect(record).toMatchObject({ bucket: 1, stamp: 7, id: expect.any(String) });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard.flat()).toHaveLength(0);
  });

  it('writes each asked-for frame to the next socket in turn, as an edit carrying the created record', async () => {
    const record = await create(server, 5, { bucket: 2, stamp: 8 });
    await waitUntil(() => heard.flat().length >= 5, 10_000, 'five frames');
    expect(heard.map((mine) => mine.length).sort()).toEqual([1, 2, 2]);
    const updates = heard.flat();
    for (const { room, update } of updates) {
      expect(room).toBe('floor');
      expect(update).toMatchObject({
        change_type: 'added',
        seq: expect.any(Number),
        remove: [],
        put: [{ index: 0, record }],
      });
    }
    const seqs = updates.map(({ update }) => (update as { seq: number }).seq);
    expect(new Set(seqs).size).toBe(5);
  });
});

describe('the floors measured in turns', () => {
  it('counts the I/O floor only in turns given frames, with the frames asked for', async () => {
    const floor = await startHttpFloor({ requestsPerSecond: 200, warmUpRequests: 10, sockets: 4 });
    try {
      await floor.turn(20);
      expect(floor.report().withFrames.requests).toBe(0);
      const burst = { every: 5, frames: 8 };
      await floor.turn(20, { perRequest: 2.5, burst });
      const report = floor.report();
      expect(report).toMatchObject({ requests: 40, turns: 2 });
      expect(report.cpuMsPerRequest).toBeGreaterThan(0);
      expect(report.withFrames).toMatchObject({ requests: 20, framesPerRequest: 2.5, burst });
      expect(report.withFrames.cpuMsPerRequest).toBeGreaterThan(0);
    } finally {
      await floor.stop();
    }
  });
});
