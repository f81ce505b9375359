/**
 * The one platform client of this page load. Creating it resolves the app params first, which also
 * stores and strips `access_token` from the address bar before any request or parent message.
 */
import { getAppParams } from '@/lib/config/app-params';
import { createClient, type PlatformClient } from '@/lib/sdk/client';

let client: PlatformClient | undefined;

export function getPlatformClient(): PlatformClient {
  if (!client) {
    const params = getAppParams();
    client = createClient({
      serverUrl: params.serverUrl,
      appId: params.appId,
      appBaseUrl: params.appBaseUrl,
      token: params.token,
    });
  }
  return client;
}
