/**
 * Integrations: `integrations.Core.<Endpoint>(params)` and installable packages
 * `integrations.<Package>.<Endpoint>(params)` (docs/SPEC.md sections 5 and 7).
 */
import type { CallOptions, ModuleContext } from '../core/transport';
import { apiPath, assertNamedParams, assertPathSegment, proxyKey, type NamedParams } from '../core/validate';

/** One integration endpoint: named parameters (or a FormData built by the caller) in, JSON out. */
export type IntegrationEndpoint<Params extends object = NamedParams, Result = unknown> = (
  params?: Params | FormData,
  options?: CallOptions,
) => Promise<Result>;

/** The Core endpoints known from the reference client, with their parameter and result shapes. */
export interface KnownCoreIntegrations {
  InvokeLLM: IntegrationEndpoint<
    {
      prompt: string;
      add_context_from_internet?: boolean;
      response_json_schema?: Record<string, unknown>;
      file_urls?: string[];
    },
    unknown
  >;
  GenerateImage: IntegrationEndpoint<{ prompt: string }, { url: string }>;
  UploadFile: IntegrationEndpoint<{ file: Blob }, { file_url: string }>;
  SendEmail: IntegrationEndpoint<{ to: string; subject: string; body: string; from_name?: string }, unknown>;
  ExtractDataFromUploadedFile: IntegrationEndpoint<{ file_url: string; json_schema: Record<string, unknown> }, unknown>;
  UploadPrivateFile: IntegrationEndpoint<{ file: Blob }, { file_uri: string }>;
  CreateFileSignedUrl: IntegrationEndpoint<{ file_uri: string; expires_in?: number }, { signed_url: string }>;
}

/** Endpoints of one package, by name. */
export type PackageIntegrations = { readonly [endpoint: string]: IntegrationEndpoint };

/** Parameters of a custom (OpenAPI-described) integration call. */
export interface CustomIntegrationCallParams {
  /** The request body. */
  payload?: Record<string, unknown>;
  /** Values for the operation's `{placeholders}` in its path; sent as `path_params`. */
  pathParams?: Record<string, string>;
  /** Query parameters; sent as `query_params`. */
  queryParams?: Record<string, unknown>;
}

export interface CustomIntegrationCallResponse {
  success: boolean;
  status_code: number;
  data: unknown;
}

/** `integrations.custom`: integrations the workspace described with an OpenAPI document. */
export interface CustomIntegrationsModule {
  call(
    slug: string,
    operationId: string,
    params?: CustomIntegrationCallParams,
    options?: CallOptions,
  ): Promise<CustomIntegrationCallResponse>;
}

/** `integrations.Core` (typed known endpoints plus any other name), `custom`, and any installable package. */
export type IntegrationsModule = {
  readonly Core: KnownCoreIntegrations & PackageIntegrations;
  readonly custom: CustomIntegrationsModule;
} & {
  readonly [packageName: string]: PackageIntegrations;
};

/** Builds the function behind one endpoint. Parameters are checked before any request is sent. */
export function createIntegrationEndpoint(
  { transport, appId }: ModuleContext,
  packageName: string,
  endpointName: string,
): IntegrationEndpoint {
  const pkg = assertPathSegment('Integration package', packageName);
  const endpoint = assertPathSegment('Integration name', endpointName);
  const path =
    pkg === 'Core'
      ? apiPath`/apps/${appId}/integration-endpoints/Core/${endpoint}`
      : apiPath`/apps/${appId}/integration-endpoints/installable/${pkg}/integration-endpoints/${endpoint}`;
  return async (params, options) => {
    const body = assertNamedParams('Integration', endpoint, params);
    return transport.request<unknown>({ method: 'POST', path, body }, options);
  };
}

/**
 * The `integrations` proxy: any package name, then any endpoint name. Endpoint functions are cheap
 * closures, so they are built per access rather than cached.
 */
export function createIntegrationsModule(context: ModuleContext): IntegrationsModule {
  const { transport, appId } = context;
  const lookup = <T>(build: (name: string) => T) =>
    new Proxy(
      {},
      {
        get: (_target, property) => {
          const name = proxyKey(property);
          return name === undefined ? undefined : build(name);
        },
      },
    );
  const custom: CustomIntegrationsModule = {
    call: async (...args) => (await import('./custom-call.lazy')).callCustomIntegration(transport, appId, ...args),
  };
  return lookup((packageName) =>
    packageName === 'custom'
      ? custom
      : lookup((endpointName) => createIntegrationEndpoint(context, packageName, endpointName)),
  ) as IntegrationsModule;
}
