import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { EmulatorOptions, RunningEmulator } from '../core/types';
import { watchEntityFiles, type EntityWatcher } from '../entities/registry';
import { readFunctions } from '../functions/catalog';
import { handleRequest, type HandleOptions } from '../http/handle';
import { LocalAddresses } from '../http/local-access';
import { DEFAULT_QUERY_BUDGET_MS } from '../query/budget';
import { attachRealtime, type RealtimeServer } from '../realtime/socket';
import { applySeed } from '../seed/seed';
import { diskBlobs, memoryBlobs } from '../store/blobs';
import { Store } from '../store/store';
import { createInstance, type Instance } from './create-instance';
import { openServedProject, type ServedProject } from './project';
import { buildRouter } from './route-table';

export type { EmulatorOptions, RunningEmulator } from '../core/types';
export { DEFAULT_BODY_LIMIT_BYTES } from './create-instance';

export const DEFAULT_PORT = 3001;

/** The HTTP server of an instance: one request at a time through the gates, the router and the error body. */
function httpServer(instance: Instance, options: EmulatorOptions): Server {
  const { context } = instance;
  // Made once: built per request, its closure alone cost a property definition each time under tsx
  // (esbuild's keepNames names every closure as it is created).
  const handling: HandleOptions = {
    router: buildRouter(context),
    corsOrigins: context.corsOrigins,
    addresses: context.addresses,
    latencyMs: options.latencyMs ?? 0,
    queryBudgetMs: options.queryBudgetMs ?? DEFAULT_QUERY_BUDGET_MS,
    logError: (error) => console.error('[emulator] unexpected error:', error),
  };
  return createServer((request, response) => void handleRequest(request, response, handling));
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** The store with the seed applied; a start that fails later must close it (releasing the data dir's lock). */
async function openStore(options: EmulatorOptions, served: ServedProject): Promise<Store> {
  const store = options.dataDir ? Store.onDisk(options.dataDir) : Store.inMemory();
  try {
    await applySeed(store, served.seed, new Date((options.clock ?? Date.now)()).toISOString());
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

interface Started {
  instance: Instance;
  served: ServedProject;
  server: Server;
  realtime: RealtimeServer;
  entityWatcher: EntityWatcher | null;
  address: AddressInfo;
}

function runningEmulator(started: Started, url: string): RunningEmulator {
  const { instance, served, server, realtime, entityWatcher } = started;
  const { store, functions, projectFunctionsDir } = instance.context;
  let closing: Promise<void> | null = null;
  return {
    url,
    port: started.address.port,
    seed: served.seed,
    entityNames: () => served.entities.names(),
    functionNames: async () =>
      projectFunctionsDir ? [...(await readFunctions(projectFunctionsDir)).keys()].sort() : [],
    outbox: () => structuredClone([...store.mails()]),
    close() {
      closing ??= (async () => {
        entityWatcher?.close();
        await instance.settled();
        await functions.close();
        const closed = realtime.io.close();
        server.closeAllConnections();
        await closed.catch(() => undefined);
        await store.close();
      })();
      return closing;
    },
  };
}

/** Starts the local platform: HTTP API under /api, the login page, socket.io real-time. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = (message: string) => {
    if (!options.quiet) console.log(`[emulator] ${message}`);
  };
  const served = await openServedProject(options);
  const store = await openStore(options, served);
  let entityWatcher: EntityWatcher | null = null;
  try {
    const blobs = options.dataDir ? await diskBlobs(options.dataDir) : memoryBlobs();
    const addresses = new LocalAddresses();
    const projectFunctionsDir = options.projectFunctionsDir ?? served.project?.functionsDir ?? null;
    const instance = createInstance({ ...served, options, store, blobs, addresses, projectFunctionsDir, log });
    const server = httpServer(instance, options);
    const realtime = attachRealtime(server, instance.context);
    instance.attachRealtime(realtime.publisher);
    // A broken entity file is reported even with --quiet: the edit the developer just saved is not in effect.
    const reloadLog = { info: log, problem: (message: string) => console.error(`[emulator] ${message}`) };
    entityWatcher = served.project ? watchEntityFiles(served.project, served.entities, reloadLog) : null;
    const host = options.host ?? '127.0.0.1';
    const address = await listen(server, options.port ?? DEFAULT_PORT, host);
    addresses.bind(host, address.port);
    const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    instance.setBaseUrl(url);
    return runningEmulator({ instance, served, server, realtime, entityWatcher, address }, url);
  } catch (error) {
    entityWatcher?.close();
    await store.close();
    throw error;
  }
}
