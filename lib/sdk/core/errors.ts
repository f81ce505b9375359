/**
 * The one error type every SDK call rejects with.
 *
 * Request failures (network, timeout, abort, HTTP status) and argument errors raised before a request
 * is sent all arrive as a {@link PlatformError}, so callers need a single check:
 * {@link isPlatformError}.
 */

/** Codes the SDK itself assigns when the server did not send one. */
export const ErrorCodes = {
  /** The connection failed (refused, reset, DNS, offline, CORS). */
  network: 'NETWORK_ERROR',
  /** The per-call or client timeout elapsed before a response arrived. */
  timeout: 'TIMEOUT',
  /** The caller's AbortSignal fired. */
  aborted: 'ABORTED',
  /** An argument was rejected before any request was sent. */
  invalidArgument: 'INVALID_ARGUMENT',
  /** `asServiceRole` was used on a client created without a service token. */
  serviceTokenRequired: 'SERVICE_TOKEN_REQUIRED',
  /** A browser-only call (login redirect) ran where there is no window. */
  browserRequired: 'BROWSER_REQUIRED',
  /** An actor connection that is not open already holds the most unsent messages it keeps. */
  sendQueueFull: 'SEND_QUEUE_FULL',
} as const;

/** A code from {@link ErrorCodes}. */
export type SdkErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Fields of a {@link PlatformError} besides its message. */
export interface PlatformErrorDetails {
  /** HTTP status of the response; absent when no response arrived. */
  status?: number;
  /** The server body's `code`, else one of {@link ErrorCodes}. */
  code?: string;
  /** The parsed response body (object or text), when there was one. */
  data?: unknown;
  /** The underlying error: the fetch failure, the abort reason, the FetchError. */
  cause?: unknown;
}

/** JSON-safe view of a {@link PlatformError}; omits `cause`, which may be circular. */
export interface PlatformErrorJSON {
  name: 'Base44Error';
  message: string;
  status: number | undefined;
  code: string | undefined;
  data: unknown;
}

// A registered symbol survives duplicate copies of this module (two bundles, test module registries),
// where `instanceof` would answer false for a perfectly good error.
const PLATFORM_ERROR_BRAND = Symbol.for('coming-soon.platform-sdk.error');

/**
 * A failed platform call.
 *
 * Its `name` is "Base44Error", the name the reference client's errors carry, so code written for
 * `@base44/sdk` that checks `error.name` (or `instanceof Base44Error`, the same class exported under
 * that name) keeps working.
 *
 * `message` follows docs/SPEC.md section 8: the response body's `message`, else its `detail`, else the transport
 * text ("Network failure", "timeout of N ms exceeded", "Request failed with status code N").
 */
export class PlatformError extends Error {
  override readonly name = 'Base44Error';
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly data: unknown;
  override readonly cause: unknown;
  readonly [PLATFORM_ERROR_BRAND] = true;

  constructor(message: string, details: PlatformErrorDetails = {}) {
    super(message);
    this.status = details.status;
    this.code = details.code;
    this.data = details.data;
    this.cause = details.cause;
  }

  /** A JSON-safe copy for logs and for forwarding to a parent frame. */
  toJSON(): PlatformErrorJSON {
    return { name: this.name, message: this.message, status: this.status, code: this.code, data: this.data };
  }
}

/** True for any {@link PlatformError}, even one created by another copy of this module. */
export function isPlatformError(value: unknown): value is PlatformError {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLATFORM_ERROR_BRAND] === true
  );
}

/** An argument error thrown before any request is sent. */
export function invalidArgument(message: string): PlatformError {
  return new PlatformError(message, { code: ErrorCodes.invalidArgument });
}

/**
 * `JSON.stringify`, failing as the SDK's one error class: a cycle or a BigInt (which make it throw)
 * rejects with `INVALID_ARGUMENT` before anything is sent, never with a raw `TypeError`. Kept here
 * rather than in request-body.ts because lazy modules need it too, and every chunk already shares this one.
 *
 * @param what - Names the value in the message ("The request body", "The filter").
 */
export function toJson(what: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PlatformError(`${what} cannot be sent as JSON: ${reason}`, {
      code: ErrorCodes.invalidArgument,
      cause: error,
    });
  }
}
