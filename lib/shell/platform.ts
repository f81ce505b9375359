/**
 * The one platform client of this page load, made from the app params. It is created with no
 * `token` option, so the SDK's token store takes `access_token` from the address bar (storing it
 * once and stripping it) as the client starts, before the client's first request and before the
 * editor bridge can report the URL; otherwise the client starts with the stored token.
 */
import { getAppParams } from '@/lib/config/app-params';
import { createClient, type PlatformClient } from '@/lib/sdk';

let client: PlatformClient | undefined;

export function getPlatformClient(): PlatformClient {
  if (!client) {
    const params = getAppParams();
    client = createClient({
      serverUrl: params.serverUrl,
      appId: params.appId,
      appBaseUrl: params.appBaseUrl,
    });
  }
  return client;
}
