/**
 * The shared harness of the suites that drive SDK clients against a real emulator: an emulator with
 * a data folder (so it can be stopped and restarted on its port with its data), the seeded user
 * signed in, and SDK clients that are cleaned up after every test. A suite calls
 * `emulatorWithClients()` once at its top; the hooks it registers start, sign in, clean up and close.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { EmulatorOptions, RunningEmulator } from '@/emulator/core/types';
import { createClient, type ClientOptions, type PlatformClient } from '@/lib/sdk';

import { loginToken, SEEDED_ACCOUNTS, SEEDED_APPS, startTestEmulator } from './emulator';

/** The app the harness's clients and its signed-in user belong to. */
export const APP = SEEDED_APPS.public;

/** An emulator with a data folder, restartable on its port. */
export class Platform {
  private running: RunningEmulator | undefined;
  private constructor(
    readonly dataDir: string,
    private readonly options: EmulatorOptions,
  ) {}

  static async start(options: EmulatorOptions = {}): Promise<Platform> {
    const platform = new Platform(await mkdtemp(path.join(tmpdir(), 'emulator-clients-')), options);
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

export interface EmulatorWithClients {
  /** The running emulator; read it inside tests and hooks. */
  readonly platform: Platform;
  /**
   * The access token of the seeded user (`SEEDED_ACCOUNTS.user`) in {@link APP}. Tokens are signed
   * with a secret kept in the data folder, so it outlives the platform's restarts.
   */
  readonly userToken: string;
  /** SDK clients; every one made is cleaned up after each test. */
  readonly clients: Clients;
}

export interface EmulatorWithClientsOptions {
  /** Passed to the emulator. */
  emulator?: EmulatorOptions;
  /** One emulator for the whole suite (default), or a fresh one with fresh data for every test. */
  freshFor?: 'suite' | 'test';
}

/** Registers the hooks of an emulator with a signed-in user and SDK clients for the calling suite. */
export function emulatorWithClients(options: EmulatorWithClientsOptions = {}): EmulatorWithClients {
  const clients = new Clients();
  let started: { platform: Platform; userToken: string } | undefined;
  const start = async () => {
    const platform = await Platform.start(options.emulator);
    started = { platform, userToken: await loginToken(platform.emulator, APP, SEEDED_ACCOUNTS.user.email) };
  };
  const dispose = async () => {
    await started?.platform.dispose();
    started = undefined;
  };
  const current = () => {
    if (!started) throw new Error('The emulator is not started yet (use it inside a test or hook)');
    return started;
  };
  if (options.freshFor === 'test') {
    beforeEach(start);
    afterEach(async () => {
      clients.cleanupAll();
      await dispose();
    });
  } else {
    beforeAll(start);
    afterEach(() => clients.cleanupAll());
    afterAll(dispose);
  }
  return {
    get platform() {
      return current().platform;
    },
    get userToken() {
      return current().userToken;
    },
    clients,
  };
}
