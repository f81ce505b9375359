/**
 * Backend functions: `functions.invoke(name, params)` (SPEC sections 5 and 7).
 */
import type { CallOptions, RawResponse, Transport } from './transport';
import { apiPath, assertNamedParams, assertPathSegment } from './validate';

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
}

export function createFunctionsModule(transport: Transport, appId: string, functionsVersion?: string): FunctionsModule {
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
  };
}
