/**
 * The shapes of `integrations`: endpoints, the Core endpoints known from the reference, and custom
 * (OpenAPI-described) calls. Apart from the code so the lazily loaded custom call shares them
 * without importing the module that loads it.
 */
import type { CallOptions } from '../core/transport';
import type { NamedParams } from '../core/validate';

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
