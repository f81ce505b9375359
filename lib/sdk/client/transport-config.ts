/**
 * The options every request needs, from a client's options: shared by `createClient()` and
 * `fetchPublicSettings()`, so both send the same request to the same place.
 */
import { invalidArgument } from '../core/errors';
import { parseAbsoluteHttpUrl } from '../core/redirects';
import type { TransportConfig } from '../core/transport';
import { assertPathSegment } from '../core/validate';
import { DEFAULT_SERVER_URL, type ClientOptions } from './client-types';

export function normaliseBaseUrl(label: string, value: string): string {
  if (value === '') return '';
  const url = parseAbsoluteHttpUrl(value);
  if (!url || url.search || url.hash) {
    throw invalidArgument(`${label} must be an absolute http(s) URL without credentials, query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The options every request needs, checked and normalised (the platform's origin and the app id);
 * throws INVALID_ARGUMENT before anything is created.
 */
export function transportConfigOf(options: ClientOptions): Omit<TransportConfig, 'authHeaders'> {
  const serverUrl = options?.serverUrl ?? DEFAULT_SERVER_URL;
  if (typeof serverUrl !== 'string') throw invalidArgument('serverUrl must be a string ("" for this origin)');
  return {
    appId: assertPathSegment('appId', options.appId),
    serverUrl: normaliseBaseUrl('serverUrl', serverUrl),
    headers: options.headers,
    fetch: options.fetch,
    onError: options.onError ?? options.options?.onError,
    timeout: options.timeout,
  };
}
