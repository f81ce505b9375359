import type { IncomingHttpHeaders } from 'node:http';

import { authorize, bearerToken } from '../auth/caller';
import { invalidInput, notFound } from '../core/errors';
import { equalsConfiguredSecret } from '../credentials/tokens';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { callFunction, findFunctionByPath } from './function-calls';

/**
 * `functions.fetch(path, init)` of @base44/sdk: a plain HTTP request to `/api/functions/{name}/...`
 * with any method, headers and body, answered by the function's own Response. The path carries no
 * app id (the hosted platform serves each app under its own host), so the app comes from the
 * `X-App-Id` header, else from the access or service token, else it is the only app there is.
 */

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

function appIdOf(context: EmulatorContext, headers: IncomingHttpHeaders): string {
  const header = headers['x-app-id'];
  if (typeof header === 'string' && header !== '') return header;
  const token = bearerToken(headers);
  if (token !== null) {
    const claims = context.tokens.verify(token);
    if (claims) return claims.app_id;
    for (const app of context.apps.values()) if (equalsConfiguredSecret(token, app.serviceToken)) return app.id;
  }
  const [only, ...others] = context.apps.keys();
  if (only !== undefined && others.length === 0) return only;
  throw invalidInput(
    'functions.fetch cannot tell the app: send an X-App-Id header or an access token of the app',
    'app_required',
  );
}

async function fetchFunction(context: EmulatorContext, request: RouteRequest) {
  const { app } = authorize(context, appIdOf(context, request.headers), request.headers);
  const name = request.params.name as string;
  const subpath = request.params['*'] ?? '';
  const fn = await findFunctionByPath(context, app, [name, ...subpath.split('/').filter(Boolean)]);
  if (!fn) throw notFound(`Function ${name.slice(0, 100)} not found`, 'function_not_found');
  return callFunction(context, app, fn, request);
}

export function registerFunctionFetchRoutes(router: Router, context: EmulatorContext): void {
  for (const method of METHODS) {
    router.add(method, '/api/functions/:name', (request) => fetchFunction(context, request));
    router.add(method, '/api/functions/:name/*', (request) => fetchFunction(context, request));
  }
}
