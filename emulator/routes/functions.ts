import { stat } from 'node:fs/promises';
import path from 'node:path';

import { authorize, type Caller } from '../auth/caller';
import { notFound } from '../core/errors';
import type { AppConfig } from '../core/types';
import type { FunctionContext, FunctionHandler, FunctionUser } from '../function-types';
import { readNamedPayload } from '../http/body';
import { HttpError } from '../http/errors';
import { jsonReply, type Reply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { callProjectFunction, findProjectFunction } from './project-functions';

/**
 * Backend functions, loaded from the app's functions folder with a dynamic import (tsx makes .ts
 * importable from the CLI; Jest's transform does the same in tests). A name is only ever looked up
 * as a plain file name inside that folder, so a request cannot reach any other module.
 */

const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,100}$/;
const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
export const FUNCTION_TIMEOUT_MS = 30_000;

export async function findModule(dir: string, name: string): Promise<string | null> {
  for (const extension of EXTENSIONS) {
    const candidate = path.join(dir, `${name}${extension}`);
    const info = await stat(candidate).catch(() => null);
    if (info?.isFile()) return candidate;
  }
  return null;
}

function isFunction(value: unknown): value is FunctionHandler {
  return typeof value === 'function';
}

/** ESM, CommonJS and transpiled-ESM modules put the handler in different places. */
function pickHandler(module: unknown): FunctionHandler | null {
  const candidates: unknown[] = [];
  const record = (value: unknown): Record<string, unknown> | null =>
    (typeof value === 'object' || typeof value === 'function') && value !== null
      ? (value as Record<string, unknown>)
      : null;
  const top = record(module);
  const inner = record(top?.default);
  candidates.push(top?.default, top?.handler, inner?.default, inner?.handler);
  return candidates.find(isFunction) ?? null;
}

export function functionUser(caller: Caller): FunctionUser | null {
  if (caller.kind !== 'user' || !caller.member) return null;
  return {
    id: caller.account.id,
    email: caller.account.email,
    full_name: typeof caller.member.full_name === 'string' ? caller.member.full_name : caller.account.full_name,
    role: caller.role,
  };
}

async function toReply(name: string, result: unknown): Promise<Reply> {
  if (result instanceof Response) {
    const headers: Record<string, string> = {};
    const contentType = result.headers.get('content-type');
    if (contentType) headers['Content-Type'] = contentType;
    return { status: result.status, headers, body: Buffer.from(await result.arrayBuffer()) };
  }
  try {
    return jsonReply(200, result ?? null);
  } catch (error) {
    throw new HttpError(500, `Function ${name} returned a value that cannot be sent as JSON`, {
      code: 'function_error',
      detail: (error as Error).message,
    });
  }
}

export function withTimeout<T>(promise: Promise<T>, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HttpError(504, `Function ${name} did not finish within ${FUNCTION_TIMEOUT_MS / 1000} s`, {
            code: 'function_timeout',
          }),
        ),
      FUNCTION_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Finds, loads and runs a function of the app; errors become the platform's 404/500/504 answers. */
export async function runFunction(
  context: EmulatorContext,
  app: AppConfig,
  name: string,
  invocation: (file: string) => Promise<FunctionContext>,
): Promise<Reply> {
  const file = FUNCTION_NAME.test(name) && app.functionsDir ? await findModule(app.functionsDir, name) : null;
  if (!file) throw notFound(`Function ${name.slice(0, 100)} not found`, 'function_not_found');
  const input = await invocation(file);
  const handler = pickHandler(await import(file));
  if (!handler) {
    throw new HttpError(500, `Function ${name} does not export a handler (default export or "handler")`, {
      code: 'function_error',
    });
  }
  let result: unknown;
  try {
    result = await withTimeout(
      Promise.resolve().then(() => handler(input)),
      name,
    );
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    context.log(`function ${app.id}/${name} failed: ${message}`);
    throw new HttpError(500, `Function ${name} failed: ${message}`, { code: 'function_error' });
  }
  return toReply(name, result);
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function registerFunctionRoutes(router: Router, context: EmulatorContext): void {
  // `functions.invoke(name, data)`: a project function (base44/functions, on Deno) by its name,
  // nested names (`email/send`) included; otherwise a local Node handler of the app (POST only).
  const invoke = async (request: RouteRequest): Promise<Reply> => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    const name = request.params['*'] ?? '';
    const projectFunction = await findProjectFunction(context, name);
    if (projectFunction && context.projectFunctions) {
      return callProjectFunction(context, context.projectFunctions, app, projectFunction, request);
    }
    if (request.method !== 'POST') throw notFound(`Function ${name.slice(0, 100)} not found`, 'function_not_found');
    return runFunction(context, app, name, async () => {
      const payload = await readNamedPayload(request.raw, context.bodyLimitBytes, `Function ${name}`);
      return {
        appId: app.id,
        payload: payload.fields,
        files: payload.files,
        user: functionUser(caller),
        serviceRole: caller.kind === 'service',
      };
    });
  };
  for (const method of METHODS) router.add(method, '/api/apps/:appId/functions/*', invoke);
}
