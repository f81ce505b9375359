/**
 * The machine's floor for benchmark (a)'s CPU per write: Node's HTTP server with no emulator code
 * (bare-http-server.mjs) answering the same number of JSON creates from this process, at the same
 * pace and after the same warm-up. At 100 requests a second each request arrives alone and wakes
 * the server, so even this costs far more per request than the same requests sent back to back;
 * the emulator's figure is printed as a multiple of it, measured in the same run on the same machine,
 * in turns with the emulator's measured writes: measured once before them, the floor moved from
 * 0.51 to 0.84 ms between runs of the same code, more than the gap to the goal.
 */
import path from 'node:path';

import { REPOSITORY_ROOT } from '../../emulator/start/cli';
import { startMeasuredServer } from './emulator-process';
import { sleep } from './records';

export interface HttpFloorReport {
  requests: number;
  requestsPerSecond: number;
  /** CPU the bare server spent per request (ms). */
  cpuMsPerRequest: number;
  /**
   * How many turns the requests were sent in, each just before a turn of the emulator's writes, so
   * both are measured under the same load of the machine (1: all at once).
   */
  turns: number;
}

async function paced(url: string, requests: number, perSecond: number): Promise<void> {
  const started = performance.now();
  const pending: Promise<unknown>[] = [];
  for (let at = 0; at < requests; at += 1) {
    await sleep(started + (at * 1000) / perSecond - performance.now());
    const body = JSON.stringify({ bucket: at % 10, rank: at, score: 0.5, stamp: at });
    const init = { method: 'POST', body, headers: { 'content-type': 'application/json' } };
    pending.push(fetch(`${url}/api/apps/floor/entities/Item`, init).then((answer) => answer.json()));
  }
  await Promise.all(pending);
}

/** The bare server, warmed up, measured a turn at a time; the CPU of every turn adds to its report. */
export interface HttpFloor {
  /** Sends `requests` creates at the pace and adds the server's CPU for them to the report. */
  turn(requests: number): Promise<void>;
  report(): HttpFloorReport;
  stop(): Promise<void>;
}

export async function startHttpFloor(options: {
  requestsPerSecond: number;
  warmUpRequests: number;
}): Promise<HttpFloor> {
  const script = path.join(REPOSITORY_ROOT, 'support', 'live-query-load', 'bare-http-server.mjs');
  const server = await startMeasuredServer('The bare HTTP server', [script]);
  const measured = { requests: 0, cpuMs: 0, turns: 0 };
  try {
    await paced(server.url, options.warmUpRequests, options.requestsPerSecond);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    async turn(requests) {
      const before = server.cpuMs();
      await paced(server.url, requests, options.requestsPerSecond);
      measured.cpuMs += server.cpuMs() - before;
      measured.requests += requests;
      measured.turns += 1;
    },
    report: () => ({
      requests: measured.requests,
      requestsPerSecond: options.requestsPerSecond,
      cpuMsPerRequest: measured.requests > 0 ? measured.cpuMs / measured.requests : Number.NaN,
      turns: measured.turns,
    }),
    stop: () => server.stop(),
  };
}
