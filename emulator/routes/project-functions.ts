import type { AppConfig } from '../core/types';
import { FunctionRunError, type DenoFunctionRuntime } from '../functions-runtime/deno-runtime';
import { FunctionConfigError, type ProjectFunction } from '../functions-runtime/project-functions';
import { readRawBody } from '../http/body';
import { HttpError } from '../http/errors';
import type { Reply } from '../http/reply';
import type { RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';

/**
 * Calls into the project's own backend functions (`base44/functions`, run on Deno by
 * functions-runtime/): finding one by name, and forwarding a request to it with the headers the
 * platform adds, so `createClientFromRequest(req)` inside the function builds a client of this app
 * that talks to this emulator with the caller's token (`Authorization`, passed as sent) and the
 * app's service token (`Base44-Service-Authorization`, for `asServiceRole`).
 */

async function projectFunctions(context: EmulatorContext): Promise<ReadonlyMap<string, ProjectFunction>> {
  const runtime = context.projectFunctions;
  if (!runtime) return new Map();
  try {
    return await runtime.list();
  } catch (error) {
    if (!(error instanceof FunctionConfigError)) throw error;
    context.log(`functions: ${error.message}`);
    throw new HttpError(500, error.message, { code: 'function_config_invalid' });
  }
}

/** The project function of that name, or null (no project functions, or none of that name). */
export async function findProjectFunction(context: EmulatorContext, name: string): Promise<ProjectFunction | null> {
  return (await projectFunctions(context)).get(name) ?? null;
}

/**
 * The project function a `functions.fetch` path names: the longest leading run of path segments
 * that is a function's name, so a nested function (`reports/daily`) is reachable too.
 */
export async function findProjectFunctionByPath(
  context: EmulatorContext,
  segments: readonly string[],
): Promise<ProjectFunction | null> {
  const functions = await projectFunctions(context);
  for (let count = segments.length; count > 0; count -= 1) {
    const found = functions.get(segments.slice(0, count).join('/'));
    if (found) return found;
  }
  return null;
}

export async function callProjectFunction(
  context: EmulatorContext,
  runtime: DenoFunctionRuntime,
  app: AppConfig,
  fn: ProjectFunction,
  request: RouteRequest,
): Promise<Reply> {
  const body =
    request.method === 'GET' || request.method === 'HEAD'
      ? Buffer.alloc(0)
      : await readRawBody(request.raw, context.bodyLimitBytes);
  const base = new URL(context.baseUrl());
  try {
    const answer = await runtime.invoke(
      fn,
      { method: request.method, path: `${request.url.pathname}${request.url.search}`, headers: request.headers, body },
      {
        host: base.host,
        'base44-app-id': app.id,
        'base44-api-url': base.origin,
        'base44-service-authorization': `Bearer ${app.serviceToken}`,
      },
    );
    return { status: answer.status, headers: answer.headers, body: answer.body };
  } catch (error) {
    if (!(error instanceof FunctionRunError)) throw error;
    context.log(`function ${app.id}/${fn.name}: ${error.message}`);
    if (error.reason === 'timeout') throw new HttpError(504, error.message, { code: 'function_timeout' });
    throw new HttpError(500, error.message, { code: 'function_error' });
  }
}
