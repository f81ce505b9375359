/**
 * Shared setup of the real-time suites: an emulator that can be stopped and restarted on the same
 * port with the same data, SDK clients that are always cleaned up, and probes that record what a
 * subscription saw (events, errors, joins, disconnects) with timestamps.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { EmulatorOptions, RunningEmulator } from '@/emulator/core/types';
import { createClient, type ClientOptions, type PlatformClient } from '@/lib/sdk/client/create-client';
import type { PlatformError } from '@/lib/sdk/core/errors';
import type { Unsubscribe } from '@/lib/sdk/core/types';
import type { SubscriptionHooks } from '@/lib/sdk/realtime/subscription-hooks';
import { SEEDED_APPS, startTestEmulator } from '@/tests/support/emulator';

export const APP = SEEDED_APPS.public;

/** An emulator with a data folder, restartable on its port. */
export class Platform {
  private running: RunningEmulator | undefined;
  private constructor(
    readonly dataDir: string,
    private readonly options: EmulatorOptions,
  ) {}

  static async start(options: EmulatorOptions = {}): Promise<Platform> {
    const platform = new Platform(await mkdtemp(path.join(tmpdir(), 'realtime-test-')), options);
    platform.running = await startTestEmulator({ ...options, dataDir: platform.dataDir });
    return platform;
  }

  get emulator(): RunningEmulator {
    if (!this.running) throw new Error('The emulator is stopped');
    return this.running;
  }

  get url(): string {
    return this.emulator.url;
  }

  /** Closes the emulator (HTTP, socket.io and every open connection). */
  async stop(): Promise<number> {
    const port = this.emulator.port;
    await this.running?.close();
    this.running = undefined;
    return port;
  }

  /** Starts a new emulator on `port` with the same data folder. */
  async startOn(port: number): Promise<void> {
    this.running = await startTestEmulator({ ...this.options, dataDir: this.dataDir, port });
  }

  /** Runs `work` against a second emulator on another port over the same data, then closes it. */
  async whileAway<T>(work: (url: string) => Promise<T>): Promise<T> {
    if (this.running) throw new Error('Stop the emulator first: two emulators must not share a data folder');
    const away = await startTestEmulator({ ...this.options, dataDir: this.dataDir });
    try {
      return await work(away.url);
    } finally {
      await away.close();
    }
  }

  async dispose(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** SDK clients made by a suite, cleaned up after each test. */
export class Clients {
  private readonly made: PlatformClient[] = [];

  create(url: string, options: Partial<Omit<ClientOptions, 'serverUrl'>> = {}): PlatformClient {
    const client = createClient({ serverUrl: url, appId: APP, token: null, ...options });
    this.made.push(client);
    return client;
  }

  cleanupAll(): void {
    for (const client of this.made.splice(0)) client.cleanup();
  }
}

export interface Probe<T> {
  values: T[];
  errors: PlatformError[];
  /** performance.now() of each onJoin. */
  joins: number[];
  /** performance.now() of each onDisconnect. */
  disconnects: number[];
  stop: Unsubscribe;
}

/**
 * Subscribes through `subscribe` (an SDK method taking a callback and hooks; pass both on) and
 * records everything it reports.
 */
export function probe<T>(subscribe: (callback: (value: T) => void, hooks: SubscriptionHooks) => Unsubscribe): Probe<T> {
  const result: Omit<Probe<T>, 'stop'> = { values: [], errors: [], joins: [], disconnects: [] };
  const stop = subscribe((value: T) => result.values.push(value), {
    onError: (error) => result.errors.push(error),
    onJoin: () => result.joins.push(performance.now()),
    onDisconnect: () => result.disconnects.push(performance.now()),
  });
  return { ...result, stop };
}

/** Polls until `check` returns (or resolves to) a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Emits a raw event into a room through the emulator's test tool; resolves with the room's size. */
export async function emitToRoom(url: string, room: string, event: string, payload: unknown): Promise<number> {
  const response = await fetch(`${url}/api/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ event, payload }),
  });
  if (!response.ok) throw new Error(`Emitting into ${room} failed with ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { delivered: number }).delivered;
}

export const entityRoomOf = (entity: string, appId: string = APP) => `entities:${appId}:${entity}`;
