/**
 * The one platform client of this page load. Creating it resolves the app params first, which also
 * hands `access_token` from the address bar to the SDK's token store (and strips it) before any
 * request or parent message; the client then starts with the store's token (no `token` option).
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
