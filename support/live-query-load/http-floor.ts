/**
 * The machine's floor for benchmark (a)'s CPU per write: Node's HTTP server with no emulator code
 * (bare-http-server.mjs) answering the same number of JSON creates from this process, at the same
 * pace and after the same warm-up. At 100 requests a second each request arrives alone and wakes
 * the server, so even this costs far more per request than the same requests sent back to back;
 * the emulator's figure is printed as a multiple of it, measured in the same run on the same machine,
 * in turns with the emulator's measured writes: measured once before them, the floor moved from
 * 0.51 to 0.84 ms between runs of the same code, more than the gap to the goal.
 *
 * A second figure, the I/O floor, adds what the emulator's deliveries cannot do without: the same
 * process also writes each create to watching sockets as `update_model` frames, as many per request
 * as the emulator delivered per write (bare-http-server.mjs), to as many socket.io clients of this
 * process as benchmark (a) has, and in the same rhythm: a burst with each fifth request, as each
 * create of the benchmark reaches every watcher of its window at once, the rest spread over the
 * others (an even spread measured about 5% dearer per frame in a scratch run). The goal is stated
 * against the first; the second tells how much of
 * a watched write's CPU is the emulator's own code rather than the HTTP answer and the socket writes.
 */
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';

import { REPOSITORY_ROOT } from '../../emulator/start/cli';
import { startMeasuredServer } from './emulator-process';
import { sleep, waitUntil } from './records';

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
  /** The I/O floor: the same requests, each also written to sockets (measured in turns given frames). */
  withFrames: {
    requests: number;
    /** Frames written per request (the emulator's deliveries per write in the same run). */
    framesPerRequest: number;
    /** How they came: a burst with the first of every few requests, when they did. */
    burst: FrameSchedule['burst'];
    /** CPU the bare server spent per request, its frames included (ms). */
    cpuMsPerRequest: number;
  };
}

/** How many frames the I/O floor writes with its requests. */
export interface FrameSchedule {
  /** Frames per request on average. */
  perRequest: number;
  /**
   * The first of every `every` requests carries `frames` at once (at most the average's share of
   * `every` requests); the rest of the average is spread evenly over the others.
   */
  burst?: { every: number; frames: number };
}

/** Spreads `perRequest` frames over requests, a fraction adding up: how many request `at` carries. */
const evenShare = (perRequest: number, at: number) => Math.floor((at + 1) * perRequest) - Math.floor(at * perRequest);

/** The frames request number `at` of a stretch carries under `schedule`. */
export function framesOfRequest({ perRequest, burst }: FrameSchedule, at: number): number {
  if (!burst || burst.every < 2) return evenShare(perRequest, at);
  const inBurst = Math.min(burst.frames, Math.floor(perRequest * burst.every));
  if (at % burst.every === 0) return inBurst;
  const rest = (perRequest * burst.every - inBurst) / (burst.every - 1);
  // The requests before `at` that are not the first of their group.
  return evenShare(rest, at - Math.ceil(at / burst.every));
}

const NO_FRAMES: FrameSchedule = { perRequest: 0 };

/**
 * Sends `requests` creates at the pace, each asking for its frames under `schedule`; answers how
 * many frames were asked for.
 */
async function paced(url: string, requests: number, perSecond: number, schedule = NO_FRAMES): Promise<number> {
  const started = performance.now();
  const pending: Promise<unknown>[] = [];
  let frames = 0;
  for (let at = 0; at < requests; at += 1) {
    await sleep(started + (at * 1000) / perSecond - performance.now());
    const owed = framesOfRequest(schedule, at);
    frames += owed;
    const body = JSON.stringify({ bucket: at % 10, rank: at, score: 0.5, stamp: at });
    const init = { method: 'POST', body, headers: { 'content-type': 'application/json' } };
    pending.push(fetch(`${url}/api/apps/floor/entities/Item?frames=${owed}`, init).then((answer) => answer.json()));
  }
  await Promise.all(pending);
  return frames;
}

/** Socket.io clients of the floor that count the frames they hear. */
interface Watchers {
  heard(): number;
  close(): void;
}

async function connectWatchers(url: string, sockets: number): Promise<Watchers> {
  let heard = 0;
  const clients: Socket[] = Array.from({ length: sockets }, () =>
    io(url, { transports: ['websocket'], forceNew: true, reconnection: false }),
  );
  for (const client of clients) client.on('update_model', () => void (heard += 1));
  const close = () => clients.forEach((client) => client.close());
  await waitUntil(() => clients.every((client) => client.connected), 30_000, "the floor's sockets").catch(
    (error: unknown) => {
      close();
      throw error;
    },
  );
  return { heard: () => heard, close };
}

/** The bare server, warmed up, measured a turn at a time; the CPU of every turn adds to its report. */
export interface HttpFloor {
  /**
   * Sends `requests` creates at the pace and adds the server's CPU for them to the report; then,
   * given frames, the same requests again with their frames, to the I/O floor's figure.
   */
  turn(requests: number, frames?: FrameSchedule): Promise<void>;
  report(): HttpFloorReport;
  stop(): Promise<void>;
}

/** Frames during the warm-up, so the socket path is warm too (about a watched write's). */
const WARM_UP_FRAMES: FrameSchedule = { perRequest: 10 };

export async function startHttpFloor(options: {
  requestsPerSecond: number;
  warmUpRequests: number;
  /** Sockets the I/O floor writes frames to. */
  sockets: number;
}): Promise<HttpFloor> {
  const script = path.join(REPOSITORY_ROOT, 'support', 'live-query-load', 'bare-http-server.mjs');
  const server = await startMeasuredServer('The bare HTTP server', [script]);
  const measured = { requests: 0, cpuMs: 0, turns: 0 };
  const withFrames: { requests: number; frames: number; cpuMs: number; burst: FrameSchedule['burst'] } = {
    requests: 0,
    frames: 0,
    cpuMs: 0,
    burst: undefined,
  };
  /** One paced stretch of requests, measured once every frame asked for was heard. */
  const measuredStretch = async (watchers: Watchers, requests: number, schedule: FrameSchedule) => {
    const before = server.cpuMs();
    const heardBefore = watchers.heard();
    const frames = await paced(server.url, requests, options.requestsPerSecond, schedule);
    await waitUntil(() => watchers.heard() - heardBefore >= frames, 60_000, "the floor's frames");
    return { cpuMs: server.cpuMs() - before, frames };
  };
  let watchers: Watchers | undefined;
  try {
    const socketsUrl = await fetch(server.url).then((answer) => answer.text());
    watchers = await connectWatchers(socketsUrl, options.sockets);
    await measuredStretch(watchers, options.warmUpRequests, WARM_UP_FRAMES);
  } catch (error) {
    watchers?.close();
    await server.stop();
    throw error;
  }
  const connected = watchers;
  return {
    async turn(requests, frames = NO_FRAMES) {
      const alone = await measuredStretch(connected, requests, NO_FRAMES);
      measured.cpuMs += alone.cpuMs;
      measured.requests += requests;
      measured.turns += 1;
      if (frames.perRequest <= 0) return;
      const framed = await measuredStretch(connected, requests, frames);
      withFrames.cpuMs += framed.cpuMs;
      withFrames.requests += requests;
      withFrames.frames += framed.frames;
      withFrames.burst = frames.burst;
    },
    report: () => ({
      requests: measured.requests,
      requestsPerSecond: options.requestsPerSecond,
      cpuMsPerRequest: measured.requests > 0 ? measured.cpuMs / measured.requests : Number.NaN,
      turns: measured.turns,
      withFrames: {
        requests: withFrames.requests,
        framesPerRequest: withFrames.requests > 0 ? withFrames.frames / withFrames.requests : Number.NaN,
        burst: withFrames.burst,
        cpuMsPerRequest: withFrames.requests > 0 ? withFrames.cpuMs / withFrames.requests : Number.NaN,
      },
    }),
    async stop() {
      connected.close();
      await server.stop();
    },
  };
}
