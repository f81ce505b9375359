/**
 * Integrations: `integrations.Core.<Endpoint>(params)` and installable packages
 * `integrations.<Package>.<Endpoint>(params)` (docs/SPEC.md sections 5 and 7).
 */
import type { ModuleContext } from '../core/transport';
import { apiPath, assertNamedParams, assertPathSegment, proxyKey } from '../core/validate';
import type { CustomIntegrationsModule, IntegrationEndpoint, IntegrationsModule } from './integration-types';

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
 * The `integrations` proxy: every package name, then every endpoint name. Endpoint functions are cheap
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
