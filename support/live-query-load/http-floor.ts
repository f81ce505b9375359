/**
 * The machine's floor for benchmark (a)'s CPU per write: Node's HTTP server with no emulator code
 * (bare-http-server.mjs) answering the same number of JSON creates from this process, at the same
 * pace and after the same warm-up. At 100 requests a second each request arrives alone and wakes
 * the server, so even this costs far more per request than the same requests sent back to back;
 * the emulator's figure is printed as a multiple of it, measured in the same run on the same machine.
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

export async function measureHttpFloor(options: {
  requests: number;
  requestsPerSecond: number;
  warmUpRequests: number;
}): Promise<HttpFloorReport> {
  const script = path.join(REPOSITORY_ROOT, 'support', 'live-query-load', 'bare-http-server.mjs');
  const server = await startMeasuredServer('The bare HTTP server', [script]);
  try {
    await paced(server.url, options.warmUpRequests, options.requestsPerSecond);
    const before = server.cpuMs();
    await paced(server.url, options.requests, options.requestsPerSecond);
    const cpuMsPerRequest = (server.cpuMs() - before) / options.requests;
    return { requests: options.requests, requestsPerSecond: options.requestsPerSecond, cpuMsPerRequest };
  } finally {
    await server.stop();
  }
}
