import { DomainError } from '../core/errors';
import type { AppConfig } from '../core/types';
import { readFunctions, type FunctionEntry } from '../functions/catalog';
import { readRawBody } from '../http/body';
import type { Reply } from '../http/reply';
import type { RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';

/**
 * Calls into backend functions (run on Deno by emulator/functions/): the project's
 * (`base44/functions`, for every app) and, for a name the project lacks, the app's own (the seed's
 * `functionsDir`). A call is forwarded with the headers the platform adds, so
 * `createClientFromRequest(req)` inside the function builds a client of this app that talks to this
 * emulator with the caller's token (`Authorization`, passed as sent) and the app's service token
 * (`Base44-Service-Authorization`, for `asServiceRole`).
 */

async function functionsIn(context: EmulatorContext, dir: string | null): Promise<ReadonlyMap<string, FunctionEntry>> {
  if (!dir) return new Map();
  try {
    return await readFunctions(dir);
  } catch (error) {
    if (error instanceof DomainError) context.log(`functions: ${error.message}`);
    throw error;
  }
}

/** The project's functions, then the app's own: the first holds the name wins. */
async function catalogsOf(context: EmulatorContext, app: AppConfig): Promise<ReadonlyMap<string, FunctionEntry>[]> {
  return [await functionsIn(context, context.projectFunctionsDir), await functionsIn(context, app.functionsDir)];
}

function lookUp(catalogs: readonly ReadonlyMap<string, FunctionEntry>[], name: string): FunctionEntry | null {
  for (const catalog of catalogs) {
    const found = catalog.get(name);
    if (found) return found;
  }
  return null;
}

/** The function of that name the app can call, or null. */
export async function findFunction(
  context: EmulatorContext,
  app: AppConfig,
  name: string,
): Promise<FunctionEntry | null> {
  return lookUp(await catalogsOf(context, app), name);
}

/**
 * The function a `functions.fetch` path names: the longest leading run of path segments that is a
 * function's name, so a nested function (`reports/daily`) is reachable too.
 */
export async function findFunctionByPath(
  context: EmulatorContext,
  app: AppConfig,
  segments: readonly string[],
): Promise<FunctionEntry | null> {
  const catalogs = await catalogsOf(context, app);
  for (let count = segments.length; count > 0; count -= 1) {
    const found = lookUp(catalogs, segments.slice(0, count).join('/'));
    if (found) return found;
  }
  return null;
}

/** Forwards the request to the function as the platform does and answers with its Response. */
export async function callFunction(
  context: EmulatorContext,
  app: AppConfig,
  fn: FunctionEntry,
  request: RouteRequest,
): Promise<Reply> {
  const body =
    request.method === 'GET' || request.method === 'HEAD'
      ? Buffer.alloc(0)
      : await readRawBody(request.raw, context.bodyLimitBytes);
  const origin = new URL(context.baseUrl()).origin;
  try {
    return await context.functions.invoke(
      fn,
      { method: request.method, path: `${request.url.pathname}${request.url.search}`, headers: request.headers, body },
      {
        'base44-app-id': app.id,
        'base44-api-url': origin,
        'base44-service-authorization': `Bearer ${app.serviceToken}`,
      },
    );
  } catch (error) {
    if (error instanceof DomainError) context.log(`function ${app.id}/${fn.name}: ${error.message}`);
    throw error;
  }
}
