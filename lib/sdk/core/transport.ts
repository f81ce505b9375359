/**
 * The single HTTP pipeline every module uses: the platform headers, body encoding, per-call timeout
 * and AbortSignal, and normalisation of every failure into PlatformError.
 *
 * It calls fetch directly. An HTTP library (ofetch, with ufo and destr) was half of the SDK's initial
 * bundle while the little it did here (parse the body, turn a status into an error) is a dozen lines;
 * the size budget (a fifth of the reference) pays for the whole platform surface instead.
 */
import { hasWindow } from '../../util';
import { ErrorCodes, invalidArgument, PlatformError } from './errors';
import { encodeRequestBody } from './request-body';
import { visitorId } from './visitor-id';

/** Per-call options accepted by every SDK method that sends a request. */
export interface CallOptions {
  /** Cancels the request; the call then rejects with a PlatformError whose code is "ABORTED". */
  signal?: AbortSignal;
  /** Milliseconds before the call rejects with "timeout of N ms exceeded". Default: no timeout. */
  timeout?: number;
}

/** Query values; undefined and null are left out of the URL. */
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

/** What a module asks the transport to send. `path` is relative to `{serverUrl}/api`. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: QueryParams;
  /** JSON by default; multipart for FormData or an object holding File/Blob values. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A response with its status and headers, for calls that return more than the body. */
export interface RawResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** The fetch signature the transport needs (satisfied by `globalThis.fetch`). */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface TransportConfig {
  serverUrl: string;
  appId: string;
  /** Extra headers on every request; the platform headers win on conflict. */
  headers?: Record<string, string>;
  fetch?: FetchLike;
  /** Called with every request failure except caller aborts. */
  onError?: (error: PlatformError) => void;
  /** Default per-call timeout in ms; undefined = none. */
  timeout?: number;
  /** Authorization (and related) headers, read per request so token changes apply at once. */
  authHeaders: () => Record<string, string>;
  /** Told of a 401 answer, with the Authorization header the request carried (if any). */
  onUnauthorized?: (sentAuthorization: string | null) => void;
}

/**
 * What every module factory is given: the transport that carries this client's credentials and the
 * app it talks to. Factories take one context object (this, or an extension of it), never positional
 * arguments, so adding a dependency never reorders a call.
 */
export interface ModuleContext {
  transport: Transport;
  appId: string;
}

export interface Transport {
  /** `{serverUrl}/api`, for the rare request that cannot go through {@link Transport.request} (a beacon). */
  baseUrl: string;
  request<T>(spec: RequestSpec, options?: CallOptions): Promise<T>;
  requestRaw<T>(spec: RequestSpec, options?: CallOptions): Promise<RawResponse<T>>;
}

/** Appends query parameters in standard form encoding. */
export function withQuery(path: string, query: QueryParams | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const encoded = params.toString();
  return encoded ? `${path}?${encoded}` : path;
}

function currentPageUrl(): string | undefined {
  return hasWindow() ? window.location.href : undefined;
}

function assertTimeout(timeout: number | undefined): void {
  if (timeout === undefined) return;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) {
    throw invalidArgument(`timeout must be a positive number of milliseconds, received: ${String(timeout)}`);
  }
}

/** Joins the caller's signal and the timeout into the one signal fetch understands. */
function linkAbort(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined) {
  if (!callerSignal && timeoutMs === undefined) {
    return { signal: undefined, timedOut: () => false, dispose: () => undefined };
  }
  const controller = new AbortController();
  let timedOut = false;
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`timeout of ${timeoutMs} ms exceeded`));
        }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', forwardAbort);
    },
  };
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/**
 * The reference's order (docs/SPEC.md section 8 extended): message from `error.message`, `message`, `detail`,
 * else "Request failed with status code N"; code from `error.code`, `code`, else the
 * `x-base44-connector-error` header.
 */
export function errorFromResponse(status: number, data: unknown, cause: unknown, headers?: Headers): PlatformError {
  const body = asRecord(data);
  const nested = asRecord(body.error);
  const message =
    nonEmptyString(nested.message) ??
    nonEmptyString(body.message) ??
    nonEmptyString(body.detail) ??
    `Request failed with status code ${status}`;
  const code =
    nonEmptyString(nested.code) ??
    nonEmptyString(body.code) ??
    nonEmptyString(headers?.get('x-base44-connector-error'));
  return new PlatformError(message, { status, code, data, cause });
}

interface FailureContext {
  timedOut: boolean;
  timeoutMs: number | undefined;
  callerSignal: AbortSignal | undefined;
}

function normaliseFailure(error: unknown, context: FailureContext): PlatformError {
  if (context.timedOut) {
    return new PlatformError(`timeout of ${context.timeoutMs} ms exceeded`, { code: ErrorCodes.timeout, cause: error });
  }
  if (context.callerSignal?.aborted) {
    return new PlatformError('Request aborted', { code: ErrorCodes.aborted, cause: context.callerSignal.reason });
  }
  // No response at all: refused, reset, DNS, offline, or blocked by CORS.
  return new PlatformError('Network failure', { code: ErrorCodes.network, cause: error });
}

/** The body as the reference reads it: JSON when it parses, else the text ("" when empty). */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Creates the transport. `serverUrl` may be empty for same-origin requests in a browser. */
export function createTransport(config: TransportConfig): Transport {
  const baseUrl = `${config.serverUrl.replace(/\/+$/, '')}/api`;
  // Read the global per call so polyfills and test doubles installed later still apply.
  const send: FetchLike = config.fetch ?? ((input, init) => globalThis.fetch(input, init));

  function buildHeaders(spec: RequestSpec, contentType: string | undefined): Headers {
    const headers = new Headers(config.headers);
    headers.set('Accept', 'application/json');
    headers.set('X-App-Id', config.appId);
    const pageUrl = currentPageUrl();
    if (pageUrl) headers.set('X-Origin-URL', pageUrl);
    for (const [name, value] of Object.entries(config.authHeaders())) headers.set(name, value);
    for (const [name, value] of Object.entries(spec.headers ?? {})) headers.set(name, value);
    // Like the reference: an anonymous browser visitor is named, so the platform can group its agent chats.
    if (pageUrl && !headers.has('Authorization')) headers.set('X-Base44-Anonymous-Id', visitorId());
    if (contentType) headers.set('Content-Type', contentType);
    return headers;
  }

  async function requestRaw<T>(spec: RequestSpec, options: CallOptions = {}): Promise<RawResponse<T>> {
    const timeoutMs = options.timeout ?? config.timeout;
    assertTimeout(timeoutMs);
    const { body, contentType } = encodeRequestBody(spec.body);
    const abort = linkAbort(options.signal, timeoutMs);
    const headers = buildHeaders(spec, contentType);
    const fail = (failure: PlatformError): PlatformError => {
      if (failure.status === 401) config.onUnauthorized?.(headers.get('Authorization'));
      if (failure.code !== ErrorCodes.aborted) reportFailure(failure);
      return failure;
    };
    let response: Response;
    let data: unknown;
    try {
      response = await send(baseUrl + withQuery(spec.path, spec.query), {
        method: spec.method,
        body,
        headers,
        signal: abort.signal,
      });
      data = await readBody(response);
    } catch (error) {
      throw fail(normaliseFailure(error, { timedOut: abort.timedOut(), timeoutMs, callerSignal: options.signal }));
    } finally {
      abort.dispose();
    }
    if (!response.ok) throw fail(errorFromResponse(response.status, data, response, response.headers));
    return { data: data as T, status: response.status, headers: response.headers };
  }

  function reportFailure(failure: PlatformError): void {
    try {
      config.onError?.(failure);
    } catch {
      // A faulty error handler must not replace the error the caller is about to receive.
    }
  }

  return {
    baseUrl,
    requestRaw,
    async request<T>(spec: RequestSpec, options?: CallOptions): Promise<T> {
      return (await requestRaw<T>(spec, options)).data;
    },
  };
}
