import type { IncomingHttpHeaders } from 'node:http';

import { authorize, bearerToken } from '../auth/caller';
import { invalidInput } from '../core/errors';
import { secretsEqual } from '../credentials/tokens';
import { readRawBody } from '../http/body';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { isJsonObject } from '../util/json-object';
import { functionUser, runFunction } from './functions';
import { callProjectFunction, findProjectFunctionByPath } from './project-functions';

/**
 * `functions.fetch(path, init)` of @base44/sdk: a plain HTTP request to `/api/functions/{name}/...`
 * with any method, headers and body, answered by the function's own Response. The path carries no
 * app id (the hosted platform serves each app under its own host), so the app comes from the
 * `X-App-Id` header, else from the access or service token, else it is the only app there is.
 */

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

function appIdOf(context: EmulatorContext, headers: IncomingHttpHeaders): string {
  const header = headers['x-app-id'];
  if (typeof header === 'string' && header !== '') return header;
  const token = bearerToken(headers);
  if (token !== null) {
    const claims = context.tokens.verify(token);
    if (claims) return claims.app_id;
    for (const app of context.apps.values()) if (secretsEqual(token, app.serviceToken)) return app.id;
  }
  const [only, ...others] = context.apps.keys();
  if (only !== undefined && others.length === 0) return only;
  throw invalidInput(
    'functions.fetch cannot tell the app: send an X-App-Id header or an access token of the app',
    'app_required',
  );
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) result.append(name, item);
  }
  return result;
}

function jsonPayload(body: Buffer, headers: Headers): Record<string, unknown> {
  if (!(headers.get('content-type') ?? '').includes('json') || body.length === 0) return {};
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    throw invalidInput('Malformed JSON body', 'malformed_json');
  }
}

async function fetchFunction(context: EmulatorContext, request: RouteRequest) {
  const { app, caller } = authorize(context, appIdOf(context, request.headers), request.headers);
  const name = request.params.name as string;
  const subpath = request.params['*'] ?? '';
  const projectFunction = await findProjectFunctionByPath(context, [name, ...subpath.split('/').filter(Boolean)]);
  if (projectFunction && context.projectFunctions) {
    return callProjectFunction(context, context.projectFunctions, app, projectFunction, request);
  }
  return runFunction(context, app, name, async () => {
    const body =
      request.method === 'GET' || request.method === 'HEAD'
        ? Buffer.alloc(0)
        : await readRawBody(request.raw, context.bodyLimitBytes);
    const headers = webHeaders(request.headers);
    const url = new URL(
      `/api/functions/${encodeURIComponent(name)}/${subpath}${request.url.search}`,
      context.baseUrl(),
    );
    const web = new Request(url, {
      method: request.method,
      headers,
      ...(body.length > 0 ? { body: Uint8Array.from(body) } : {}),
    });
    return {
      appId: app.id,
      payload: jsonPayload(body, headers),
      files: {},
      user: functionUser(caller),
      serviceRole: caller.kind === 'service',
      http: { request: web, subpath },
    };
  });
}

export function registerFunctionFetchRoutes(router: Router, context: EmulatorContext): void {
  for (const method of METHODS) {
    router.add(method, '/api/functions/:name', (request) => fetchFunction(context, request));
    router.add(method, '/api/functions/:name/*', (request) => fetchFunction(context, request));
  }
}
