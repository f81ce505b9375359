import { authorize, requireAdmin, requireUser } from '../auth/caller';
import { CONNECTOR_ERROR_HEADER } from '../http/cors';
import { HttpError } from '../http/errors';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';

/**
 * Connectors (OAuth connections to third-party services) need the hosted platform and the
 * providers' consent screens, so the emulator declines each call honestly: after the same auth
 * checks as the platform (service role for workspace tokens, a user for app-user connections), a
 * 501 whose code also travels in the `X-Base44-Connector-Error` header, where @base44/sdk reads it.
 */

const CODE = 'connector_not_available_locally';

function declined(what: string): HttpError {
  return new HttpError(501, `${what} is not available in the local emulator`, {
    code: CODE,
    detail: 'Connectors need the hosted platform (OAuth with the provider); test them against a deployed app.',
    headers: { [CONNECTOR_ERROR_HEADER]: CODE },
  });
}

export function registerConnectorRoutes(router: Router, context: EmulatorContext): void {
  const base = '/api/apps/:appId';
  const asService = (what: string) => (request: RouteRequest) => {
    const { caller } = authorize(context, request.params.appId as string, request.headers);
    requireAdmin(caller);
    throw declined(what);
  };
  const asUser = (what: string) => (request: RouteRequest) => {
    const { caller } = authorize(context, request.params.appId as string, request.headers);
    requireUser(caller);
    throw declined(what);
  };
  router.add('GET', `${base}/external-auth/tokens/:integrationType`, asService('A connector access token'));
  router.add(
    'GET',
    `${base}/external-auth/tokens/connectors/:connectorId`,
    asService('A workspace connector connection'),
  );
  router.add('POST', `${base}/connectors/:integrationType/call`, asService('A connector API call'));
  router.add('GET', `${base}/app-user-auth/connectors/:connectorId/token`, asUser('An app-user connector token'));
  router.add(
    'POST',
    `${base}/app-user-auth/connectors/:connectorId/initiate`,
    asUser('Connecting an app-user connector'),
  );
  router.add('DELETE', `${base}/app-user-auth/connectors/:connectorId`, asUser('Disconnecting an app-user connector'));
}
