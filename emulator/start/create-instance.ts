import type { AppConfig, EmulatorOptions, SentEmail } from '../core/types';
import { FileUrlSigner } from '../credentials/file-signatures';
import { SessionRegistry } from '../credentials/sessions';
import { TokenSigner } from '../credentials/tokens';
import type { EntityRegistry } from '../entities/registry';
import { FunctionRuntime } from '../functions/runtime';
import { OriginPolicy, originSet } from '../http/cors';
import type { LocalAddresses } from '../http/local-access';
import type { EmulatorContext, RealtimePublisher } from '../instance/context';
import type { BlobStorage } from '../store/blobs';
import { newId, type Store } from '../store/store';
import { defaultResponder } from './agent-responder';

export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** The parts a running emulator is made of, built by startEmulator. */
export interface InstanceParts {
  options: EmulatorOptions;
  apps: readonly AppConfig[];
  entities: EntityRegistry;
  store: Store;
  blobs: BlobStorage;
  addresses: LocalAddresses;
  /** The project's functions folder (`base44/functions`), served to every app; null without one. */
  projectFunctionsDir: string | null;
  log: (message: string) => void;
}

/** The context and what only the start may still set on it: real-time and the address, once known. */
export interface Instance {
  context: EmulatorContext;
  attachRealtime(publisher: RealtimePublisher): void;
  setBaseUrl(url: string): void;
  /** Resolves when every background task (agent replies) has finished. */
  settled(): Promise<void>;
}

/** Work that outlives a response: failures are logged, and `settled` waits for all of it. */
function backgroundTasks(log: (message: string) => void) {
  const running = new Set<Promise<void>>();
  return {
    run(task: () => Promise<void>) {
      const promise = task()
        .catch((error: unknown) =>
          log(`background task failed: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(() => running.delete(promise));
      running.add(promise);
    },
    settled: async () => {
      await Promise.allSettled([...running]);
    },
  };
}

export function createInstance(parts: InstanceParts): Instance {
  const { options, apps, store, log } = parts;
  const clock = options.clock ?? Date.now;
  const nowIso = () => new Date(clock()).toISOString();
  const extraOrigins = [...originSet(options.siteOrigins ?? [])];
  const background = backgroundTasks(log);
  let baseUrl = '';
  let publisher: RealtimePublisher | null = null;
  const context: EmulatorContext = {
    apps: new Map(apps.map((app) => [app.id, app])),
    entities: parts.entities,
    extraOrigins,
    // No process starts here: each function gets its Deno process on its first call.
    functions: new FunctionRuntime({
      origin: () => baseUrl,
      log: options.functionLog ?? ((line) => log(`function ${line}`)),
      ...(options.functionTimeoutMs === undefined ? {} : { timeoutMs: options.functionTimeoutMs }),
    }),
    projectFunctionsDir: parts.projectFunctionsDir,
    corsOrigins: new OriginPolicy([...apps.flatMap((app) => app.siteOrigins), ...extraOrigins]),
    addresses: parts.addresses,
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    quiet: options.quiet ?? false,
    responder: options.responder ?? defaultResponder,
    store,
    blobs: parts.blobs,
    tokens: new TokenSigner(store.tokenSecret, clock),
    fileUrls: new FileUrlSigner(store.tokenSecret, clock),
    sessions: new SessionRegistry(store.tokenSecret, store, clock),
    get realtime(): RealtimePublisher {
      if (!publisher) throw new Error('Real-time is not attached yet');
      return publisher;
    },
    now: clock,
    nowIso,
    baseUrl: () => baseUrl,
    sendMail(change, appId, email, sender = 'emulator') {
      const sent: SentEmail = { id: newId(), app_id: appId, ...email, sent_at: nowIso() };
      change.sendMail(sent, sender);
      change.afterCommit(() => log(`e-mail to ${sent.to}: ${sent.subject}\n${sent.body.replace(/^/gm, '    ')}`));
      return sent;
    },
    runInBackground: background.run,
    log,
  };
  return {
    context,
    attachRealtime: (attached) => (publisher = attached),
    setBaseUrl: (url) => (baseUrl = url),
    settled: background.settled,
  };
}
