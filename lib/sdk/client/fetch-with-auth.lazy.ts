/**
 * `client.fetchWithAuth(path, init)`: a fetch to the app's OWN origin that carries this client's
 * credentials in the headers `createClientFromRequest` reads back, so a route reached this way can
 * rebuild the caller's client. Loaded on first use.
 */
import { invalidArgument } from '../core/errors';
import type { FetchLike } from '../core/transport';

export interface FetchWithAuthInit extends RequestInit {
  /** The fetch to use (e.g. a server runtime's in-process fetch); default: the global fetch. */
  fetch?: FetchLike;
}

export interface FetchWithAuthContext {
  appId: string;
  serverUrl: string;
  functionsVersion: string | undefined;
  /** The platform headers the client was created with (Base44-State, X-Data-Env are passed on). */
  platformHeaders: Record<string, string> | undefined;
  userToken: () => string | null;
  serviceToken: string | undefined;
}

const OWN_ORIGIN_PROBE = 'http://own-origin.invalid';

/**
 * Only a root-relative path may be fetched, checked the way the URL parser sees it (it drops tabs
 * and newlines and treats "\" as "/"), so credentials can never reach another origin.
 */
function assertOwnOriginPath(path: unknown): string {
  if (typeof path !== 'string' || path === '')
    throw invalidArgument("fetchWithAuth() requires a path, such as '/api/orders'.");
  let resolved: URL | undefined;
  try {
    resolved = new URL(path, OWN_ORIGIN_PROBE);
  } catch {
    resolved = undefined;
  }
  const cleaned = path.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+/, '');
  if (resolved?.origin !== OWN_ORIGIN_PROBE || !cleaned.startsWith('/') || /^\/[/\\]/.test(cleaned)) {
    throw invalidArgument(
      `fetchWithAuth() only sends requests to your app's own origin, so your app's credentials never reach a third party. "${path}" is not a path on it — pass a relative path such as '/api/orders'. Use base44.functions.fetch() to call a Base44 backend function, or plain fetch() for another origin.`,
    );
  }
  return path;
}

export async function fetchWithAuth(
  context: FetchWithAuthContext,
  path: string,
  init: FetchWithAuthInit = {},
): Promise<Response> {
  assertOwnOriginPath(path);
  const { fetch: send = (input, requestInit) => globalThis.fetch(input, requestInit), ...requestInit } = init;
  const headers = new Headers(init.headers);
  const inherited = new Headers(context.platformHeaders);
  // A header the caller set wins: a route may call another as a different identity on purpose.
  const inherit = (name: string, value: string | null | undefined) => {
    if (value && !headers.has(name)) headers.set(name, value);
  };
  const userToken = context.userToken();
  inherit('Authorization', userToken ? `Bearer ${userToken}` : null);
  inherit('Base44-Service-Authorization', context.serviceToken ? `Bearer ${context.serviceToken}` : null);
  inherit('Base44-App-Id', context.appId);
  inherit('Base44-Api-Url', context.serverUrl);
  inherit('Base44-Functions-Version', context.functionsVersion);
  inherit('Base44-State', inherited.get('Base44-State'));
  inherit('X-Data-Env', inherited.get('X-Data-Env'));
  return send(path, { ...requestInit, headers });
}
