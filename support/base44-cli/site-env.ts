/**
 * What `base44 dev` tells the site it starts, translated into our build-time settings.
 *
 * The vendor CLI runs the site's `serveCommand` (`npm run dev`) with `VITE_BASE44_APP_ID` (the linked
 * app) and `VITE_BASE44_APP_BASE_URL` (its local backend, `http://localhost:<port>`, or the app's
 * hosted URL with `--remote`). Our site reads `NEXT_PUBLIC_PLATFORM_*` instead, so `npm run dev`
 * passes these on and starts no emulator of its own. Both variables or neither: one alone is a
 * half-configured environment, and guessing the other would point the site at the wrong platform.
 */
import { acceptAppId, acceptConfiguredBaseUrl } from '../../lib/config/origin-allowlist';

export const VENDOR_APP_ID_VAR = 'VITE_BASE44_APP_ID';
export const VENDOR_APP_BASE_URL_VAR = 'VITE_BASE44_APP_BASE_URL';

/** The site's settings for a platform the vendor CLI named. */
export interface VendorSiteEnv {
  appId: string;
  /** The backend's base URL: the site's server and its login page both live there. */
  backendUrl: string;
  /** The NEXT_PUBLIC_* variables `next dev` gets. */
  nextPublic: {
    NEXT_PUBLIC_PLATFORM_SERVER_URL: string;
    NEXT_PUBLIC_PLATFORM_APP_BASE_URL: string;
    NEXT_PUBLIC_PLATFORM_APP_ID: string;
  };
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The vendor backend named by `env`, or null when neither variable is set (then `npm run dev` starts
 * our emulator as usual). Throws a message naming the variable when only one is set or one is invalid.
 */
export function vendorSiteEnv(env: Readonly<Record<string, string | undefined>>): VendorSiteEnv | null {
  const rawAppId = present(env[VENDOR_APP_ID_VAR]);
  const rawBaseUrl = present(env[VENDOR_APP_BASE_URL_VAR]);
  if (rawAppId === undefined && rawBaseUrl === undefined) return null;
  if (rawAppId === undefined || rawBaseUrl === undefined) {
    const [set, missing] =
      rawAppId === undefined
        ? [VENDOR_APP_BASE_URL_VAR, VENDOR_APP_ID_VAR]
        : [VENDOR_APP_ID_VAR, VENDOR_APP_BASE_URL_VAR];
    throw new Error(
      `${set} is set but ${missing} is not: set both (as \`npx base44 dev\` does) to use that backend, or neither to start the local emulator.`,
    );
  }
  const appId = acceptAppId(rawAppId);
  if (appId === null) {
    throw new Error(`${VENDOR_APP_ID_VAR}="${rawAppId}" is not an app id (letters, digits, "_" and "-").`);
  }
  const backendUrl = acceptConfiguredBaseUrl(rawBaseUrl);
  if (backendUrl === null) {
    throw new Error(
      `${VENDOR_APP_BASE_URL_VAR}="${rawBaseUrl}" is not an absolute http(s) URL without query, fragment or credentials.`,
    );
  }
  return {
    appId,
    backendUrl,
    nextPublic: {
      NEXT_PUBLIC_PLATFORM_SERVER_URL: backendUrl,
      NEXT_PUBLIC_PLATFORM_APP_BASE_URL: backendUrl,
      NEXT_PUBLIC_PLATFORM_APP_ID: appId,
    },
  };
}

/**
 * The host `npm run dev` serves the site on for that backend. The vendor backend lets only
 * `http://localhost[:port]` pages call it (its CORS and socket.io origin rule), so a local backend
 * means a site on `localhost`, not `127.0.0.1`; an explicit HOST still wins.
 */
export function vendorSiteHost(site: VendorSiteEnv, explicitHost: string | undefined): string {
  if (explicitHost) return explicitHost;
  return new URL(site.backendUrl).hostname === 'localhost' ? 'localhost' : '127.0.0.1';
}
