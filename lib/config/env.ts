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

/** Font origins of editor preview builds when NEXT_PUBLIC_EDITOR_FONT_ORIGINS is unset: Google Fonts, which the editor's theme picker uses. */
export const DEFAULT_EDITOR_FONT_ORIGINS = 'https://fonts.googleapis.com,https://fonts.gstatic.com';

/** Written as NEXT_PUBLIC_EDITOR_ORIGINS, deliberately builds a site no editor can frame. */
export const NO_EDITOR = 'none';

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

function hostOf(value: string): { protocol: string; hostname: string } | null {
  try {
    const { protocol, hostname } = new URL(value);
    return { protocol, hostname };
  } catch {
    return null;
  }
}

/**
 * Why a build made with `env` is not fit to deploy: it would talk to the local emulator, or no
 * editor could frame it, without anybody having chosen that. Empty when it is configured for a real
 * platform and editor (or explicitly for no editor). Used by build-steps/site/build-site.ts, which refuses
 * such a production build unless it is asked for a local one, and then marks it as local.
 */
export function deployProblems(env: Readonly<Record<string, string | undefined>>): string[] {
  const problems: string[] = [];
  const server = env.NEXT_PUBLIC_PLATFORM_SERVER_URL;
  if (!server) {
    problems.push(
      `NEXT_PUBLIC_PLATFORM_SERVER_URL is not set: the site would talk to the local emulator at ${DEFAULT_SERVER_URL}.`,
    );
  } else {
    const parsed = hostOf(server);
    if (!parsed || parsed.protocol !== 'https:' || LOOPBACK.test(parsed.hostname)) {
      problems.push(`NEXT_PUBLIC_PLATFORM_SERVER_URL=${server} is not the https URL of a hosted platform.`);
    }
  }
  if (!env.NEXT_PUBLIC_PLATFORM_APP_ID) {
    problems.push(`NEXT_PUBLIC_PLATFORM_APP_ID is not set: the site would use the emulator's app "${DEFAULT_APP_ID}".`);
  }
  const editors = env.NEXT_PUBLIC_EDITOR_ORIGINS?.trim();
  if (!editors) {
    problems.push(
      `NEXT_PUBLIC_EDITOR_ORIGINS is not set: the platform's visual editor could not frame the site (set it to "${NO_EDITOR}" to build without editor support on purpose).`,
    );
  } else if (editors !== NO_EDITOR) {
    for (const entry of editors
      .split(',')
      .map((piece) => piece.trim())
      .filter(Boolean)) {
      const parsed = hostOf(entry);
      if (!parsed || parsed.protocol !== 'https:' || LOOPBACK.test(parsed.hostname)) {
        problems.push(`NEXT_PUBLIC_EDITOR_ORIGINS entry ${entry} is not the https origin of a hosted editor.`);
      }
    }
  }
  return problems;
}
