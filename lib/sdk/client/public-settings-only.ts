/**
 * The app's public settings without a client, for a page that holds no token and needs nothing else
 * yet: the site shell's first check of an anonymous visitor (components/shell/ShellRuntime.tsx). It
 * sends the request a client holding no token sends (no `Authorization`), through the same transport,
 * and keeps the rest of the client (its modules, the token's session) out of that page's code.
 */
import { createTransport, type CallOptions } from '../core/transport';
import type { PublicSettingsResponse } from '../core/types';
import { createPublicSettingsModule } from '../public-settings/public-settings';
import type { ClientOptions } from './client-types';
import { transportConfigOf } from './transport-config';

/** `GET /apps/public/prod/public-settings/by-id/{appId}` as a client without a token sends it. */
export function fetchPublicSettings(
  options: Pick<ClientOptions, 'serverUrl' | 'appId' | 'headers' | 'fetch' | 'onError' | 'options' | 'timeout'>,
  call?: CallOptions,
): Promise<PublicSettingsResponse> {
  const config = transportConfigOf(options);
  const transport = createTransport({ ...config, authHeaders: () => ({}) });
  return createPublicSettingsModule({ transport, appId: config.appId }).get(call);
}
