import { authorize } from '../auth/caller';
import { notFound } from '../core/errors';
import type { Reply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { callFunction, findFunction } from './function-calls';

/**
 * `functions.invoke(name, data)`: `/api/apps/{appId}/functions/{name}` with any method, nested names
 * (`email/send`) included, after the app's access gate. The function gets the request as sent (the
 * platform hands functions the raw request: a JSON body, or the multipart form @base44/sdk builds
 * for files) and its Response comes back as is.
 */

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function registerFunctionRoutes(router: Router, context: EmulatorContext): void {
  const invoke = async (request: RouteRequest): Promise<Reply> => {
    const { app } = authorize(context, request.params.appId as string, request.headers);
    const name = request.params['*'] ?? '';
    const fn = await findFunction(context, app, name);
    if (!fn) throw notFound(`Function ${name.slice(0, 100)} not found`, 'function_not_found');
    return callFunction(context, app, fn, request);
  };
  for (const method of METHODS) router.add(method, '/api/apps/:appId/functions/*', invoke);
}
