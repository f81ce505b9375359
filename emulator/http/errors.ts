import { DomainError, type FailureKind } from '../core/errors';
import { jsonReply, type Reply } from './reply';

/**
 * Errors on the wire, in one place: the status of every kind of domain error (core/errors.ts), the
 * platform's JSON error body `{ message, detail?, code?, extra_data?, error: { message, code? } }`
 * (the flat fields for our client and older ones, the nested `error` object that @base44/sdk reads
 * first), the ValidationError body of schema violations, and `HttpError` for what only HTTP knows
 * (a method the route lacks, a content type, a Host, a header of the answer). Nothing below
 * `routes/` raises `HttpError` (ESLint keeps it so).
 */

/** The status of each kind of failure. */
const STATUS_OF: Readonly<Record<FailureKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  schema_violation: 422,
  too_many_requests: 429,
  project_failed: 500,
  not_available: 501,
  upstream_failed: 502,
  over_budget: 503,
  timed_out: 504,
};

export function statusOf(kind: FailureKind): number {
  return STATUS_OF[kind];
}

/** An answer only the HTTP layer can give: its own status and, where needed, headers. */
export class HttpError extends Error {
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly extraData: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    message: string,
    options: {
      code?: string;
      detail?: string;
      extraData?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.code = options.code;
    this.detail = options.detail;
    this.extraData = options.extraData;
    this.headers = options.headers ?? {};
  }
}

interface WireError {
  message: string;
  code?: string | undefined;
  detail?: string | undefined;
  extraData?: Record<string, unknown> | undefined;
}

/** The platform's error body. */
function errorBody(error: WireError): Record<string, unknown> {
  return {
    message: error.message,
    ...(error.detail === undefined ? {} : { detail: error.detail }),
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.extraData === undefined ? {} : { extra_data: error.extraData }),
    error: { message: error.message, ...(error.code === undefined ? {} : { code: error.code }) },
  };
}

/** The platform's body for a record that breaks its schema (as the vendor's backend answers it). */
function validationBody(error: DomainError): Record<string, unknown> {
  return { error_type: 'ValidationError', message: error.message, request_id: null, traceback: '' };
}

function domainReply(error: DomainError): Reply {
  const headers: Record<string, string> =
    error.retryAfterMs === undefined
      ? {}
      : { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) };
  const body = error.kind === 'schema_violation' ? validationBody(error) : errorBody(error);
  return jsonReply(statusOf(error.kind), body, headers);
}

/** The status an error is answered with; undefined for an unexpected one (a 500). */
export function wireStatus(error: unknown): number | undefined {
  if (error instanceof DomainError) return statusOf(error.kind);
  if (error instanceof HttpError) return error.status;
  return undefined;
}

/** The answer for anything a route threw; an unexpected error is logged and answered 500. */
export function errorReply(error: unknown, logError: (error: unknown) => void): Reply {
  if (error instanceof DomainError) return domainReply(error);
  if (error instanceof HttpError) return jsonReply(error.status, errorBody(error), error.headers);
  logError(error);
  const detail = error instanceof Error ? error.message : String(error);
  return jsonReply(500, errorBody({ message: 'Internal emulator error', code: 'internal_error', detail }));
}
