/**
 * Public types of the local platform emulator: its options, the running handle and the shapes that
 * tests and the CLI see (seeded apps, sent e-mails, agent replies).
 */

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
  /** Folder of function modules, relative to the seed file (or absolute). */
  functionsDir?: string;
  members: SeedMember[];
  /** Optional initial records per entity name. */
  entities?: Record<string, Record<string, unknown>[]>;
}

export interface Seed {
  accounts: SeedAccount[];
  apps: SeedApp[];
}

export interface SentEmail {
  id: string;
  app_id: string;
  to: string;
  subject: string;
  body: string;
  from_name?: string;
  sent_at: string;
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
  bodyLimitBytes?: number;
  /** Delay every HTTP response, for benchmarks. */
  latencyMs?: number;
  /** Extra origins allowed for CORS and login redirects, on top of each app's own. */
  siteOrigins?: string[];
  responder?: AgentResponder;
  quiet?: boolean;
  /** Milliseconds since the epoch; tests move it to expire tokens and codes. Default Date.now. */
  clock?: () => number;
}

export interface RunningEmulator {
  /** `http://HOST:PORT`, no trailing slash. */
  url: string;
  port: number;
  outbox(): SentEmail[];
  close(): Promise<void>;
}
