/**
 * `createClientFromRequest(request)`: the client of a backend function, built from the headers the
 * platform adds when it forwards a request to the function (the reference's names and messages).
 */
import { invalidArgument } from '../core/errors';
import type { DefaultEntitySchemas, EntitySchemas } from '../core/types';
import { createClient, DEFAULT_SERVER_URL, type PlatformClient } from './create-client';

/** The token of a `Bearer <token>` header; null when the header is absent. */
function bearerToken(value: string | null): string | undefined {
  if (value === null) return undefined;
  const parts = value.split(' ');
  if (!value.startsWith('Bearer ') || parts.length !== 2 || !parts[1]) {
    throw invalidArgument('Invalid authorization header format. Expected "Bearer <token>"');
  }
  return parts[1];
}

export function createClientFromRequest<S extends EntitySchemas = DefaultEntitySchemas>(
  request: Pick<Request, 'headers'>,
): PlatformClient<S> {
  const header = (name: string) => request.headers.get(name);
  const appId = header('Base44-App-Id');
  if (!appId) throw invalidArgument('Base44-App-Id header is required, but is was not found on the request');
  const serviceToken = bearerToken(header('Base44-Service-Authorization'));
  const token = bearerToken(header('Authorization'));
  const headers: Record<string, string> = {};
  const state = header('Base44-State');
  if (state) headers['Base44-State'] = state;
  // Only the known data environments travel on: an arbitrary value from the caller is not relayed.
  const dataEnv = header('X-Data-Env');
  if (dataEnv === 'dev' || dataEnv === 'prod') headers['X-Data-Env'] = dataEnv;
  return createClient<S>({
    serverUrl: header('Base44-Api-Url') || DEFAULT_SERVER_URL,
    appId,
    token: token ?? null,
    serviceToken,
    functionsVersion: header('Base44-Functions-Version') ?? undefined,
    headers,
  });
}
