import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { defaultResponder } from '../agent-responder';
import type { EmulatorOptions, RunningEmulator, SentEmail } from '../core/types';
import { SessionRegistry } from '../credentials/sessions';
import { TokenSigner } from '../credentials/tokens';
import { openProjectFolder, readEntityDefinitions } from '../entities/project';
import { EntityRegistry, watchEntityFiles } from '../entities/registry';
import { DenoFunctionRuntime } from '../functions-runtime/deno-runtime';
import { originSet } from '../http/cors';
import { handleRequest } from '../http/handle';
import { LocalAddresses } from '../http/local-access';
import { Router } from '../http/router';
import type { EmulatorContext, RealtimePublisher } from '../instance/context';
import { DEFAULT_QUERY_BUDGET_MS } from '../query/budget';
import { attachRealtime } from '../realtime/socket';
import { registerAgentRoutes } from '../routes/agents';
import { registerAnalyticsRoutes } from '../routes/analytics';
import { registerAppLogRoutes } from '../routes/app-logs';
import { registerAuthRoutes } from '../routes/auth';
import { registerConnectorRoutes } from '../routes/connectors';
import { registerCustomIntegrationRoutes } from '../routes/custom-integrations';
import { registerEmulatorToolRoutes } from '../routes/emulator-tools';
import { registerEntityRoutes } from '../routes/entities';
import { registerFileRoutes } from '../routes/files';
import { registerFunctionFetchRoutes } from '../routes/function-fetch';
import { registerFunctionRoutes } from '../routes/functions';
import { registerIntegrationRoutes } from '../routes/integrations';
import { registerLoginRoutes } from '../routes/login';
import { registerPublicSettingsRoutes } from '../routes/public-settings';
import { registerUserMeRoutes } from '../routes/user-me';
import { registerUserRoutes } from '../routes/users';
import { applySeed, loadSeed } from '../seed/seed';
import { diskBlobs, memoryBlobs } from '../store/blobs';
import { newId, Store } from '../store/store';

export type { EmulatorOptions, RunningEmulator } from '../core/types';

export const DEFAULT_PORT = 3001;
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

function buildRouter(context: EmulatorContext): Router {
  const router = new Router();
  // Order matters only where a literal segment and a parameter compete: User/me before :entity/:id.
  registerUserMeRoutes(router, context);
  registerEntityRoutes(router, context);
  registerUserRoutes(router, context);
  registerPublicSettingsRoutes(router, context);
  registerAuthRoutes(router, context);
  registerIntegrationRoutes(router, context);
  registerCustomIntegrationRoutes(router, context);
  registerConnectorRoutes(router, context);
  registerFunctionRoutes(router, context);
  registerFunctionFetchRoutes(router, context);
  registerAgentRoutes(router, context);
  registerAppLogRoutes(router, context);
  registerAnalyticsRoutes(router, context);
  registerFileRoutes(router, context);
  registerEmulatorToolRoutes(router, context);
  registerLoginRoutes(router, context);
  return router;
}

/** Starts the local platform: HTTP API under /api, the login page, socket.io real-time. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = options.clock ?? Date.now;
  const nowIso = () => new Date(clock()).toISOString();
  const quiet = options.quiet ?? false;
  const log = (message: string) => {
    if (!quiet) console.log(`[emulator] ${message}`);
  };
  // The project folder first: the app it links decides which apps are served.
  const project = options.projectDir === undefined ? null : await openProjectFolder(options.projectDir);
  const initialDefinitions = project ? await readEntityDefinitions(project.entitiesDir) : new Map();
  const { seed, apps } = await loadSeed(
    options.seed,
    project?.linkedAppId ? { id: project.linkedAppId, name: project.name } : undefined,
  );
  const entities = new EntityRegistry({
    initial: initialDefinitions,
    // Every served app shares the project's entities: the seeded apps are local stand-ins for the
    // linked one (same site, different access modes), and a local build keeps its seeded app id.
    projectApps: new Set(project ? apps.map((app) => app.id) : []),
    schemalessApps: new Set(apps.filter((app) => app.schemaless).map((app) => app.id)),
  });
  const store = options.dataDir ? Store.onDisk(options.dataDir) : Store.inMemory();
  // A start that fails after the database opened must release it (and the data dir's lock).
  const closeOnFailure = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      await store.close();
      throw error;
    }
  };
  await closeOnFailure(async () => {
    await applySeed(store, seed, nowIso());
    await store.commit();
  });
  const dataDir = options.dataDir;
  const blobs = dataDir ? await closeOnFailure(() => diskBlobs(dataDir)) : memoryBlobs();
  const extraOrigins = [...originSet(options.siteOrigins ?? [])];
  const background = new Set<Promise<void>>();
  let baseUrl = '';
  let publisher: RealtimePublisher | null = null;
  const addresses = new LocalAddresses();
  const boundHost = options.host ?? '127.0.0.1';
  const functionsDir = options.projectFunctionsDir ?? project?.functionsDir;
  const projectFunctions = functionsDir
    ? new DenoFunctionRuntime({
        dir: functionsDir,
        log: options.functionLog ?? ((line) => log(`function ${line}`)),
        ...(options.functionTimeoutMs === undefined ? {} : { timeoutMs: options.functionTimeoutMs }),
      })
    : null;

  const context: EmulatorContext = {
    apps: new Map(apps.map((app) => [app.id, app])),
    entities,
    extraOrigins,
    projectFunctions,
    corsOrigins: originSet([...apps.flatMap((app) => app.siteOrigins), ...extraOrigins]),
    addresses,
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    quiet,
    responder: options.responder ?? defaultResponder,
    store,
    blobs,
    tokens: new TokenSigner(store.data.token_secret, clock),
    sessions: new SessionRegistry(store.data.token_secret, store.data.ended_sessions, clock),
    get realtime(): RealtimePublisher {
      if (!publisher) throw new Error('Real-time is not attached yet');
      return publisher;
    },
    now: clock,
    nowIso,
    baseUrl: () => baseUrl,
    sendMail(appId, email, sender = 'emulator') {
      const sent: SentEmail = { id: newId(), app_id: appId, ...email, sent_at: nowIso() };
      store.outbox.add(sent, sender);
      log(`e-mail to ${sent.to}: ${sent.subject}\n${sent.body.replace(/^/gm, '    ')}`);
      return sent;
    },
    runInBackground(task) {
      const running = task()
        .catch((error: unknown) =>
          log(`background task failed: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => background.delete(running));
      background.add(running);
    },
    log,
  };

  const router = buildRouter(context);
  const server = createServer((request, response) => {
    void handleRequest(request, response, {
      router,
      corsOrigins: context.corsOrigins,
      addresses,
      latencyMs: options.latencyMs ?? 0,
      queryBudgetMs: options.queryBudgetMs ?? DEFAULT_QUERY_BUDGET_MS,
      logError: (error) => console.error('[emulator] unexpected error:', error),
    });
  });
  const realtime = attachRealtime(server, context);
  publisher = realtime.publisher;

  // A broken entity file is reported even with --quiet: the edit the developer just saved is not in effect.
  const reloadLog = { info: log, problem: (message: string) => console.error(`[emulator] ${message}`) };
  const entityWatcher = project ? watchEntityFiles(project, entities, reloadLog) : null;
  await closeOnFailure(
    () =>
      new Promise<void>((resolve, reject) => {
        const failed = (error: Error) => {
          entityWatcher?.close();
          reject(error);
        };
        server.once('error', failed);
        server.listen(options.port ?? DEFAULT_PORT, boundHost, () => {
          server.off('error', failed);
          resolve();
        });
      }),
  );
  const address = server.address() as AddressInfo;
  addresses.bind(boundHost, address.port);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}`;

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    port: address.port,
    seed,
    entityNames: () => entities.names(),
    functionNames: async () => (projectFunctions ? [...(await projectFunctions.list()).keys()].sort() : []),
    outbox: () => structuredClone([...store.outbox.list()]),
    close() {
      closing ??= (async () => {
        entityWatcher?.close();
        await Promise.allSettled([...background]);
        await projectFunctions?.close();
        const closed = realtime.io.close();
        server.closeAllConnections();
        await closed.catch(() => undefined);
        await store.close();
      })();
      return closing;
    },
  };
}
