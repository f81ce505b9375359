/**
 * The emulator's core types, in one place: the seed and app shapes, the stored state, the token
 * claims, and the options and handle that tests and the CLI see. Every layer (store, auth, http,
 * routes, server) takes its shapes from here and this file imports nothing, so the import graph of
 * emulator/ points one way: routes -> auth / http / store -> types.
 */

// --- Seed and apps -------------------------------------------------------------------------------

/** Who may use an app: anyone, any logged-in account, or only accounts registered as its users. */
export type AppAccess = 'public' | 'login_required' | 'registered_only';

export type UserRole = 'admin' | 'user';

export interface SeedAccount {
  id: string;
  email: string;
  full_name: string;
  password: string;
}

export interface SeedMember {
  email: string;
  role: UserRole;
}

export interface SeedApp {
  id: string;
  name: string;
  access: AppAccess;
  /** Origins of the app's own site: CORS and login redirects are allowed to these. */
  siteOrigins: string[];
  serviceToken: string;
  /**
   * The app's own backend functions in the platform's layout (`<name>/entry.ts`), run on Deno like
   * the project's; relative to the seed file (or absolute).
   */
  functionsDir?: string;
  /** Local stand-ins for custom integrations (`<slug>.ts` modules), relative to the seed file (or absolute). */
  integrationsDir?: string;
  members: SeedMember[];
  /**
   * Tests only: entity names the project does not define store any fields, as before definitions
   * existed. Otherwise such a name is a 404, as on the platform.
   */
  schemaless?: boolean;
  /** Optional initial records per entity name. */
  entities?: Record<string, Record<string, unknown>[]>;
}

export interface Seed {
  accounts: SeedAccount[];
  apps: SeedApp[];
}

/** An app as the running emulator sees it: the seed's settings with its function folder resolved. */
export interface AppConfig {
  id: string;
  name: string;
  access: AppAccess;
  siteOrigins: string[];
  serviceToken: string;
  /** Absolute folder of the app's own functions (platform layout), or null when it has none. */
  functionsDir: string | null;
  /** Absolute folder of its custom integration modules, or null when it has none. */
  integrationsDir: string | null;
  /** The seed's `schemaless` flag (tests): undefined entities take any fields instead of a 404. */
  schemaless: boolean;
}

// --- Stored state (kept in memory, persisted with a data dir) ------------------------------------

/**
 * The fields the platform sets on every record (the documentation says not to define them): never
 * taken from a request, never in an entity schema.
 */
export const BUILT_IN_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'created_date',
  'updated_date',
  'created_by',
  'created_by_id',
]);

/**
 * How the platform names the service role on what it creates (`created_by`, `created_by_id`), as
 * the vendor's backend stamps it. No account may take this address or id (auth/accounts.ts and the
 * seed refuse them), so a rule such as `{"created_by": "{{user.email}}"}` never hands a user the
 * service role's records.
 */
export const SERVICE_ROLE = { email: 'server@server.com', id: 'service-role' } as const;

/** The built-in entity of an app's users: every app has it (its rules: model/user-security.ts). */
export const USER_ENTITY = 'User';

/** A record of any entity. System fields are set by the emulator only. */
export interface EntityRecord {
  id: string;
  created_date: string;
  updated_date: string;
  created_by: string | null;
  /** The creating user's id (null for the service role; absent on seeded and older records). */
  created_by_id?: string | null;
  [field: string]: unknown;
}

/** A platform identity. Membership in an app is a separate `User` record in that app. */
export interface Account {
  readonly id: string;
  readonly email: string;
  readonly full_name: string;
  /** null until an invited account sets its password. */
  readonly password_hash: string | null;
  readonly email_verified: boolean;
  /** Bumped on every password change: tokens carrying an older version stop working. */
  readonly token_version: number;
  readonly created_date: string;
}

export interface OtpState {
  /** SHA-256 of the current code; null once it expired or took too many wrong guesses. */
  readonly code_hash: string | null;
  readonly expires_at: number;
  /** Wrong guesses at the current code. */
  readonly attempts: number;
  readonly app_id: string;
  /** When the last code was sent (ms). Absent, like the budget below, in data from older versions. */
  readonly sent_at?: number;
  /** The address's guessing budget (auth/otp.ts): the hour it counts in, wrong guesses, codes sent. */
  readonly window_start?: number;
  readonly window_failures?: number;
  readonly window_codes?: number;
}

export interface ResetTicket {
  readonly account_id: string;
  readonly app_id: string;
  readonly expires_at: number;
  readonly purpose: 'reset' | 'invite';
}

export interface PageVisit {
  readonly id: string;
  readonly user_id: string;
  readonly user_email: string;
  readonly page_name: string;
  readonly created_date: string;
}

export interface StoredFile {
  readonly id: string;
  readonly app_id: string;
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly created_by: string | null;
  readonly created_date: string;
  /** Private (`Core.UploadPrivateFile`): served only through a signed URL, never at a public one. */
  readonly private?: true;
}

export interface SentEmail {
  readonly id: string;
  readonly app_id: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly from_name?: string;
  readonly sent_at: string;
}

export interface AgentMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  file_urls?: string[];
  created_date: string;
}

export interface AgentConversation {
  id: string;
  agent_name: string;
  messages: AgentMessage[];
  metadata?: Record<string, unknown>;
  created_by: string;
  created_by_id: string;
  created_date: string;
  updated_date: string;
}

/**
 * A conversation as the store holds it: replaced whole when a message is added, never changed in
 * place, so a reader's reference stays what it read.
 */
export type StoredConversation = Readonly<Omit<AgentConversation, 'messages'>> & {
  readonly messages: readonly AgentMessage[];
};

// --- Tokens --------------------------------------------------------------------------------------

/** What an access token says (auth/tokens.ts signs and verifies it). */
export interface TokenClaims {
  sub: string;
  app_id: string;
  ver: number;
  iat: number;
  exp: number;
  /** The login session the token belongs to; absent for tokens issued outside a login (SSO). */
  sid?: string;
}

// --- Agents, options and the running handle ------------------------------------------------------

export interface AgentReply {
  content: string;
}

/** Produces the assistant's answer to a user message, or null to stay silent. */
export type AgentResponder = (input: {
  appId: string;
  conversation: AgentConversation;
  message: AgentMessage;
}) => AgentReply | null | Promise<AgentReply | null>;

export interface EmulatorOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Persist to this folder; omitted = memory only. */
  dataDir?: string;
  /** A seed object or a path to a seed JSON file. */
  seed?: Seed | string;
  /**
   * A Base44 project folder (holding `base44/`): its entity definitions apply, reloaded when the
   * files change, and the app its `base44/.app.jsonc` links is served. Omitted: no definitions.
   */
  projectDir?: string;
  bodyLimitBytes?: number;
  /** Delay every HTTP response, for benchmarks. */
  latencyMs?: number;
  /** Milliseconds the queries of one request may run before it is answered 503 (default 500). */
  queryBudgetMs?: number;
  /** Extra origins allowed for CORS and login redirects, on top of each app's own. */
  siteOrigins?: string[];
  responder?: AgentResponder;
  /**
   * A folder of backend functions in the platform's layout (`<name>/entry.ts`, optional
   * `function.jsonc`), run unchanged on Deno for every app; default: the `functions` folder of
   * `projectDir` (its config's `functionsDir`). They take precedence over an app's own functions
   * (`functionsDir` of the seed) of the same name.
   */
  projectFunctionsDir?: string;
  /** How long a function may take for one call (default 5 minutes, the platform's limit). */
  functionTimeoutMs?: number;
  /** Where the functions' output lines go (default: the terminal, unless quiet). */
  functionLog?: (line: string) => void;
  quiet?: boolean;
  /** Milliseconds since the epoch; tests move it to expire tokens and codes. Default Date.now. */
  clock?: () => number;
}

export interface RunningEmulator {
  /** `http://HOST:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** The seed as served: the configured one, plus the project's linked app when the seed lacks it. */
  seed: Seed;
  /** Names of the entities the project defines right now (empty without a project). */
  entityNames(): string[];
  /** Names of the project's backend functions; empty without a functions folder. */
  functionNames(): Promise<string[]>;
  outbox(): SentEmail[];
  close(): Promise<void>;
}
