import type {
  AgentMessage,
  AgentResponder,
  AppConfig,
  EntityRecord,
  SentEmail,
  StoredConversation,
} from '../core/types';
import type { FileUrlSigner } from '../credentials/file-signatures';
import type { SessionRegistry } from '../credentials/sessions';
import type { TokenSigner } from '../credentials/tokens';
import type { EntityDefinitions } from '../entities/definition';
import type { FunctionRuntime } from '../functions/runtime';
import type { OriginPolicy } from '../http/cors';
import type { LocalAddresses } from '../http/local-access';
import type { BlobStorage } from '../store/blobs';
import type { MailSender } from '../store/outbox';
import type { Store, StoreChange } from '../store/store';

/**
 * Broadcasts to socket.io rooms. Called from a store change's `afterCommit` steps (records/commit.ts
 * for records, the agents' routes for messages), so only once the change is durable.
 */
export interface RealtimePublisher {
  entityChanged(appId: string, entity: string, type: 'create' | 'update' | 'delete', record: EntityRecord): void;
  conversationChanged(conversation: StoredConversation, message: AgentMessage): void;
  /** Test helper: emits any event with any payload into a room. Returns the number of sockets in it. */
  emitRaw(room: string, event: string, payload: unknown): number;
  /** Test helper: the server disconnects every socket in a room. Returns how many it disconnected. */
  disconnectRoom(room: string): number;
  /**
   * Test helper: closes the connection under every socket in a room, as a network failure would (the
   * clients reconnect by themselves, unlike after `disconnectRoom`). Returns how many it dropped.
   */
  dropRoom(room: string): number;
}

/** Everything a route needs, built once per emulator instance. */
export interface EmulatorContext {
  apps: ReadonlyMap<string, AppConfig>;
  /** Entity definitions per app (schemas and row/field security); may change when files reload. */
  entities: EntityDefinitions;
  /** Origins from the `siteOrigins` option; every app allows them in addition to its own. */
  extraOrigins: readonly string[];
  /** Every origin any app allows, and every loopback origin: CORS on the shared API and the socket. */
  corsOrigins: OriginPolicy;
  /** The host names and origins of this emulator itself (Host, form and local-helper checks). */
  addresses: LocalAddresses;
  /** The one function runtime (Deno): runs the project's functions and the seeded apps' own. */
  functions: FunctionRuntime;
  /** The project's functions folder (`base44/functions`, for every app); null without one. */
  projectFunctionsDir: string | null;
  bodyLimitBytes: number;
  quiet: boolean;
  responder: AgentResponder;
  store: Store;
  blobs: BlobStorage;
  tokens: TokenSigner;
  /** Signatures of private-file URLs (`Core.CreateFileSignedUrl`). */
  fileUrls: FileUrlSigner;
  /** Login sessions ended by logout: their tokens stop working. */
  sessions: SessionRegistry;
  realtime: RealtimePublisher;
  now(): number;
  nowIso(): string;
  /** `http://host:port` of this emulator, known once it listens. */
  baseUrl(): string;
  /**
   * Stages an e-mail into the outbox as part of `change` (logged once committed). The emulator's
   * own mails always fit (the oldest roll off); a mail a caller asked for is a 413 when the outbox
   * is full, refusing the whole change.
   */
  sendMail(
    change: StoreChange,
    appId: string,
    email: Omit<SentEmail, 'id' | 'app_id' | 'sent_at'>,
    sender?: MailSender,
  ): SentEmail;
  /** Work that outlives a response (agent replies); close() waits for it. */
  runInBackground(task: () => Promise<void>): void;
  log(message: string): void;
}

export function siteOriginsOf(context: EmulatorContext, app: AppConfig): Set<string> {
  return new Set([...app.siteOrigins, ...context.extraOrigins]);
}
