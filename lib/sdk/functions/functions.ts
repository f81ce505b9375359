/**
 * Backend functions: `functions.invoke(name, params)` (docs/SPEC.md sections 5 and 7) and `functions.fetch`.
 */
import type { CallOptions, FetchLike, ModuleContext, RawResponse } from '../core/transport';
import { apiPath, assertNamedParams, assertPathSegment } from '../core/validate';

/** The header that selects a functions deployment (draft or published). */
export const FUNCTIONS_VERSION_HEADER = 'Base44-Functions-Version';

export interface FunctionsModule {
  /**
   * Runs a backend function with named parameters (objects holding files go as multipart).
   * Resolves with the whole response, like the reference client: read the result from `data`.
   *
   * @example const { data } = await client.functions.invoke<{ total: number }>('sumOrders', { year: 2025 });
   */
  invoke<Result = unknown>(
    functionName: string,
    params?: Record<string, unknown> | FormData,
    options?: CallOptions,
  ): Promise<RawResponse<Result>>;
  /**
   * A plain fetch of a function's own HTTP route (`{serverUrl}/api/functions{path}`) with this client's
   * Authorization; resolves with the Response as is (streams, any status).
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** What `functions.fetch` needs besides the transport. */
export interface RawFunctionsAccess {
  serverUrl: string;
  fetch: FetchLike | undefined;
  authorization: () => string | null;
}

interface FunctionsContext extends ModuleContext {
  functionsVersion: string | undefined;
  raw: RawFunctionsAccess;
}

export function createFunctionsModule({ transport, appId, functionsVersion, raw }: FunctionsContext): FunctionsModule {
  const headers: Record<string, string> = functionsVersion ? { [FUNCTIONS_VERSION_HEADER]: functionsVersion } : {};
  return {
    async invoke<Result>(functionName: string, params?: unknown, options?: CallOptions) {
      const name = assertPathSegment('Function name', functionName);
      const body = assertNamedParams('Function', name, params);
      return transport.requestRaw<Result>(
        { method: 'POST', path: apiPath`/apps/${appId}/functions/${name}`, body, headers },
        options,
      );
    },
    async fetch(path, init = {}) {
      const requestHeaders = new Headers();
      const authorization = raw.authorization();
      if (authorization) requestHeaders.set('Authorization', authorization);
      new Headers(init.headers).forEach((value, name) => requestHeaders.set(name, value));
      const url = `${raw.serverUrl}/api/functions${String(path).startsWith('/') ? '' : '/'}${path}`;
      const send = raw.fetch ?? ((input, requestInit) => globalThis.fetch(input, requestInit));
      return send(url, { ...init, headers: requestHeaders });
    },
  };
}
