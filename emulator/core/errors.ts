/**
 * The emulator's one error type below the HTTP layer. Every layer under `routes/` (store, query,
 * model, records, auth, entities, realtime) says what went wrong in the platform's terms: a kind, a
 * stable `code` clients can branch on, a message, and structured details where the wire needs them.
 * Only `http/errors.ts` turns a kind into an HTTP status and a body, so nothing below the routes
 * knows HTTP. This file imports nothing.
 */

/** What kind of failure it is; http/errors.ts gives each kind its one status. */
export type FailureKind =
  /** The request is malformed or asks for more than a limit allows. */
  | 'invalid'
  /** No usable credentials for something that needs them. */
  | 'unauthenticated'
  /** The caller is known and may not do this. */
  | 'forbidden'
  | 'not_found'
  /** The request clashes with what exists (an account, a pending registration). */
  | 'conflict'
  /** Storing it would pass a byte or count budget. */
  | 'too_large'
  /** A record breaks its entity's schema: answered with the platform's ValidationError body. */
  | 'schema_violation'
  /** Asked too often; `retryAfterMs` says how long to wait. */
  | 'too_many_requests'
  /** The project's own code or files failed (a function that throws or does not load). */
  | 'project_failed'
  /** The hosted platform has it, the local emulator does not. */
  | 'not_available'
  /** A local stand-in for a third-party service failed. */
  | 'upstream_failed'
  /** The request's queries ran out of their time budget. */
  | 'over_budget'
  | 'timed_out';

export interface FailureDetails {
  /** A longer explanation (the wire's `detail`). */
  detail?: string;
  /** Structured facts a client can act on (the wire's `extra_data`, e.g. `limit_bytes`). */
  extraData?: Record<string, unknown>;
  /** How long to wait before asking again (too_many_requests). */
  retryAfterMs?: number;
}

export class DomainError extends Error {
  readonly detail: string | undefined;
  readonly extraData: Record<string, unknown> | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly kind: FailureKind,
    readonly code: string,
    message: string,
    details: FailureDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.detail = details.detail;
    this.extraData = details.extraData;
    this.retryAfterMs = details.retryAfterMs;
  }
}

export const invalidInput = (message: string, code = 'bad_request', detail?: string): DomainError =>
  new DomainError('invalid', code, message, detail === undefined ? {} : { detail });

export const notFound = (message: string, code = 'not_found'): DomainError =>
  new DomainError('not_found', code, message);

export const forbidden = (message: string, code = 'forbidden'): DomainError =>
  new DomainError('forbidden', code, message);

export const conflict = (message: string, code: string, detail?: string): DomainError =>
  new DomainError('conflict', code, message, detail === undefined ? {} : { detail });

/** No usable credentials for an operation that needs them. */
export const unauthenticated = (message = 'Authentication required', code = 'auth_required'): DomainError =>
  new DomainError('unauthenticated', code, message, { extraData: { reason: code } });

/** The app's access mode refuses the caller, with the reason the site's auth shell branches on. */
export const accessDenied = (reason: 'auth_required' | 'user_not_registered'): DomainError =>
  new DomainError(
    'forbidden',
    reason,
    reason === 'auth_required' ? 'Authentication required' : 'User not registered for this app',
    { extraData: { reason } },
  );

/** A record that breaks its schema; `message` is the platform's ("Error in field title: Field required"). */
export const schemaViolation = (message: string): DomainError =>
  new DomainError('schema_violation', 'validation_error', message);

export const tooManyRequests = (message: string, code: string, retryAfterMs?: number): DomainError =>
  new DomainError('too_many_requests', code, message, retryAfterMs === undefined ? {} : { retryAfterMs });
