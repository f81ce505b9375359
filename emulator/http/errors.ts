/**
 * The one error type every route throws. It becomes the platform's JSON error body
 * `{ message, detail?, code?, extra_data?, error: { message, code? } }` with its HTTP status: the flat
 * fields for our client and older ones, the nested `error` object that @base44/sdk reads first.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly extraData: Record<string, unknown> | undefined;
  /** Extra response headers (the connector error header). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
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
    this.status = status;
    this.code = options.code;
    this.detail = options.detail;
    this.extraData = options.extraData;
    this.headers = options.headers ?? {};
  }

  toBody(): Record<string, unknown> {
    return {
      message: this.message,
      ...(this.detail === undefined ? {} : { detail: this.detail }),
      ...(this.code === undefined ? {} : { code: this.code }),
      ...(this.extraData === undefined ? {} : { extra_data: this.extraData }),
      error: { message: this.message, ...(this.code === undefined ? {} : { code: this.code }) },
    };
  }
}

export const badRequest = (message: string, code = 'bad_request', detail?: string): HttpError =>
  new HttpError(400, message, { code, ...(detail === undefined ? {} : { detail }) });

export const notFound = (message: string, code = 'not_found'): HttpError => new HttpError(404, message, { code });

export const forbidden = (message: string, code = 'forbidden'): HttpError => new HttpError(403, message, { code });

/** 401: no usable credentials for an operation that needs them. */
export const unauthorized = (message = 'Authentication required', code = 'auth_required'): HttpError =>
  new HttpError(401, message, { code, extraData: { reason: code } });

/** 403 with the reason the site's auth shell branches on (auth_required / user_not_registered). */
export const accessDenied = (reason: 'auth_required' | 'user_not_registered'): HttpError =>
  new HttpError(403, reason === 'auth_required' ? 'Authentication required' : 'User not registered for this app', {
    code: reason,
    extraData: { reason },
  });
