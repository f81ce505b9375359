/**
 * Shared setup for the SDK integration suites: one emulator per suite over real HTTP, and clients
 * signed in as the seeded accounts.
 */
import { createServer } from 'node:net';

import type { RunningEmulator } from '@/emulator/core/types';
import { createClient, type ClientOptions, type PlatformClient } from '@/lib/sdk/client/create-client';
import { loginToken, SEEDED_APPS, serviceTokenFor, startTestEmulator } from '@/tests/support/emulator';

export interface EmulatorHandle {
  readonly emulator: RunningEmulator;
  readonly url: string;
}

/** Starts an emulator before the suite and closes it after. */
export function startEmulatorForSuite(options: Parameters<typeof startTestEmulator>[0] = {}): EmulatorHandle {
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startTestEmulator(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  const current = () => {
    if (!running) throw new Error('The emulator is not running yet (use it inside a test or hook)');
    return running;
  };
  return {
    get emulator() {
      return current();
    },
    get url() {
      return current().url;
    },
  };
}

export type ClientOverrides = Partial<Omit<ClientOptions, 'serverUrl'>>;

/** The entities the suites use by name; declaring them types `client.entities.<Name>`. */
export interface TestEntities {
  Todo: { title?: string; done?: boolean };
  Board: { title: string };
  User: { email: string; full_name?: string; role?: string };
}

export type TestClient = PlatformClient<TestEntities>;

/** A client for an app on the emulator; signed out unless `token` is given. */
export function clientFor(handle: EmulatorHandle, overrides: ClientOverrides = {}): TestClient {
  return createClient<TestEntities>({ serverUrl: handle.url, appId: SEEDED_APPS.public, token: null, ...overrides });
}

/** A client signed in as a seeded account. */
export async function signedInClient(
  handle: EmulatorHandle,
  email: string,
  overrides: ClientOverrides = {},
): Promise<TestClient> {
  const appId = overrides.appId ?? SEEDED_APPS.public;
  const token = await loginToken(handle.emulator, appId, email);
  return clientFor(handle, { appId, token, ...overrides });
}

/** A client with the app's service token. */
export function serviceClient(handle: EmulatorHandle, overrides: ClientOverrides = {}): TestClient {
  const appId = overrides.appId ?? SEEDED_APPS.public;
  return clientFor(handle, { appId, serviceToken: serviceTokenFor(appId), ...overrides });
}

/** The rejection of a promise, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to fail, but it succeeded');
}

export { eventually } from '@/tests/support/waits';

/** A port that was free a moment ago and has nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('The probe server had no port');
  return address.port;
}

/**
 * Emits a raw event into a socket room through the emulator's test tool; resolves with how many
 * sockets received it.
 */
export async function emitToRoom(
  handle: EmulatorHandle,
  room: string,
  event: string,
  payload: unknown,
): Promise<number> {
  const response = await fetch(`${handle.url}/api/_emulator/rooms/${encodeURIComponent(room)}/emit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ event, payload }),
  });
  if (!response.ok) throw new Error(`Emitting into ${room} failed with ${response.status}`);
  return ((await response.json()) as { delivered: number }).delivered;
}

/** Waits until `count` sockets have joined a room (subscriptions join asynchronously). */
export async function waitForRoomMembers(
  handle: EmulatorHandle,
  room: string,
  count = 1,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await emitToRoom(handle, room, 'probe', null)) < count) {
    if (Date.now() > deadline) throw new Error(`Fewer than ${count} sockets joined ${room} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until a room has no sockets left (after unsubscribing). */
export async function waitForEmptyRoom(handle: EmulatorHandle, room: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await emitToRoom(handle, room, 'probe', null)) > 0) {
    if (Date.now() > deadline) throw new Error(`Sockets still in ${room} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
