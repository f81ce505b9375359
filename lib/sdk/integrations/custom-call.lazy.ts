/**
 * `integrations.custom.call()`: an operation of a workspace's OpenAPI-described integration. Loaded on
 * first use.
 */
import { invalidArgument } from '../core/errors';
import type { CallOptions, Transport } from '../core/transport';
import { apiPath, isPlainObject } from '../core/validate';
import type { CustomIntegrationCallParams, CustomIntegrationCallResponse } from './integration-types';

const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

export function callCustomIntegration(
  transport: Transport,
  appId: string,
  slug: string,
  operationId: string,
  params?: CustomIntegrationCallParams,
  options?: CallOptions,
): Promise<CustomIntegrationCallResponse> {
  // The reference's messages, so callers see the same errors.
  if (blank(slug)) throw invalidArgument('Integration slug is required and cannot be empty');
  if (blank(operationId)) throw invalidArgument('Operation ID is required and cannot be empty');
  if (params !== undefined && !isPlainObject(params))
    throw invalidArgument('Custom integration params must be an object');
  // The platform is written in Python: camelCase names travel in snake_case.
  const { pathParams, queryParams, ...rest } = params ?? {};
  const body = {
    ...rest,
    ...(pathParams ? { path_params: pathParams } : {}),
    ...(queryParams ? { query_params: queryParams } : {}),
  };
  return transport.request(
    { method: 'POST', path: apiPath`/apps/${appId}/integrations/custom/${slug}/${operationId}`, body },
    options,
  );
}
