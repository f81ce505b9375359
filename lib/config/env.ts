/**
 * Build-time settings. Next.js inlines `process.env.NEXT_PUBLIC_*` only when written out literally,
 * so each variable is read by its full name here and nowhere else.
 */

/** Platform server used when the build sets none: the local emulator. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:3001';
/** App id used when the build sets none: the emulator's seeded public app. */
export const DEFAULT_APP_ID = 'coming-soon';

/** Raw build-time values; empty strings count as unset. */
export interface BuildEnv {
  serverUrl?: string;
  appId?: string;
  appBaseUrl?: string;
  /** Comma-separated origins a `?server_url=` / `?app_base_url=` override may name. */
  overrideOrigins?: string;
}

export function readBuildEnv(): BuildEnv {
  return {
    serverUrl: process.env.NEXT_PUBLIC_PLATFORM_SERVER_URL,
    appId: process.env.NEXT_PUBLIC_PLATFORM_APP_ID,
    appBaseUrl: process.env.NEXT_PUBLIC_PLATFORM_APP_BASE_URL,
    overrideOrigins: process.env.NEXT_PUBLIC_OVERRIDE_ORIGINS,
  };
}
