import { stat } from 'node:fs/promises';
import path from 'node:path';

import { authorize, type Caller } from '../auth/caller';
import { DomainError, invalidInput, notFound } from '../core/errors';
import type { CustomIntegrationOperation, IntegrationUser } from '../functions/integration-module';
import { readOptionalJsonObject } from '../http/body';
import { HttpError } from '../http/errors';
import { jsonReply, type Reply } from '../http/reply';
import type { Router } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { isJsonObject } from '../util/json-object';
import { ownValue } from '../util/own';

/**
 * `POST /api/apps/{appId}/integrations/custom/{slug}/{operationId}`: custom integrations run as
 * local stand-in modules of the app's `integrationsDir` (see functions/integration-module.ts,
 * imported with a dynamic import: tsx makes .ts importable from the CLI, Jest's transform in tests)
 * and answer `{ success, status_code, data }` like the platform. Slugs and operation ids are plain
 * names, looked up as a file name inside that folder and as own properties only, so a request
 * cannot reach any other module.
 */

const NAME = /^[A-Za-z0-9_-]{1,100}$/;
const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
const OPERATION_TIMEOUT_MS = 30_000;

async function findModule(dir: string, name: string): Promise<string | null> {
  for (const extension of EXTENSIONS) {
    const candidate = path.join(dir, `${name}${extension}`);
    if ((await stat(candidate).catch(() => null))?.isFile()) return candidate;
  }
  return null;
}

function integrationUser(caller: Caller): IntegrationUser | null {
  if (caller.kind !== 'user' || !caller.member) return null;
  const { account, member } = caller;
  const fullName = typeof member.full_name === 'string' ? member.full_name : account.full_name;
  return { id: account.id, email: account.email, full_name: fullName, role: caller.role };
}

/** A stand-in that never settles must not hold the request open forever. */
function withTimeout<T>(promise: Promise<T>, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const message = `Custom integration ${name} did not finish within ${OPERATION_TIMEOUT_MS / 1000} s`;
    timer = setTimeout(() => reject(new DomainError('timed_out', 'function_timeout', message)), OPERATION_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function loadOperation(
  integrationsDir: string | null,
  slug: string,
  operationId: string,
): Promise<CustomIntegrationOperation> {
  const missing = () =>
    notFound(
      `Custom integration ${slug.slice(0, 100)}.${operationId.slice(0, 100)} not found`,
      'integration_not_found',
    );
  if (!integrationsDir || !NAME.test(slug) || !NAME.test(operationId)) throw missing();
  const file = await findModule(integrationsDir, slug);
  if (!file) throw missing();
  const operation = ownValue(operationsOf(await import(file)) ?? undefined, operationId);
  if (typeof operation !== 'function') throw missing();
  return operation as CustomIntegrationOperation;
}

/** The default export; transpiled ESM (as under Jest) nests it once more. */
function operationsOf(module: unknown): Record<string, unknown> | null {
  const exported = isJsonObject(module) ? module.default : undefined;
  if (!isJsonObject(exported)) return null;
  return isJsonObject(exported.default) ? exported.default : exported;
}

async function toCallResult(result: unknown): Promise<Record<string, unknown>> {
  if (!(result instanceof Response)) return { success: true, status_code: 200, data: result ?? null };
  const text = await result.text();
  let data: unknown = text;
  if ((result.headers.get('content-type') ?? '').includes('json')) {
    try {
      data = JSON.parse(text) as unknown;
    } catch {
      data = text;
    }
  }
  return { success: result.ok, status_code: result.status, data };
}

function optionalObject(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isJsonObject(value)) throw invalidInput(`${field} must be an object`, 'invalid_parameters');
  return value;
}

export function registerCustomIntegrationRoutes(router: Router, context: EmulatorContext): void {
  router.add('POST', '/api/apps/:appId/integrations/custom/:slug/:operationId', async (request): Promise<Reply> => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    const slug = request.params.slug as string;
    const operationId = request.params.operationId as string;
    const operation = await loadOperation(app.integrationsDir, slug, operationId);
    // @base44/sdk sends `{ payload, path_params, query_params }`.
    const body = await readOptionalJsonObject(request.raw, context.bodyLimitBytes);
    const input = {
      appId: app.id,
      operationId,
      payload: optionalObject(body.payload, 'payload'),
      pathParams: optionalObject(body.path_params, 'path_params'),
      queryParams: optionalObject(body.query_params, 'query_params'),
      user: integrationUser(caller),
      serviceRole: caller.kind === 'service',
    };
    try {
      const result = await withTimeout(
        Promise.resolve().then(() => operation(input)),
        `${slug}.${operationId}`,
      );
      return jsonReply(200, await toCallResult(result));
    } catch (error) {
      if (error instanceof HttpError || error instanceof DomainError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new DomainError(
        'upstream_failed',
        'integration_error',
        `Custom integration ${slug}.${operationId} failed: ${message}`,
      );
    }
  });
}
