/**
 * The platform this page load talks to, as the SDK's options: the same for the page's client
 * (platform.ts) and for the first check of a visitor without a token (start-auth.ts), which needs no
 * client. Kept apart from platform.ts so that importing it brings none of the client's code.
 */
import { getAppParams } from '@/lib/config/app-params';

export function platformOptions(): { serverUrl: string; appId: string; appBaseUrl: string } {
  const { serverUrl, appId, appBaseUrl } = getAppParams();
  return { serverUrl, appId, appBaseUrl };
}
