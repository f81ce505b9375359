/**
 * Build-time settings: the one place that reads them. Next.js inlines `process.env.NEXT_PUBLIC_*`
 * only when written out literally, so each variable is read here by its full name (readBuildEnv);
 * build steps that hold the variables of a build as a record read them through buildEnvFrom. Others
 * get the values handed on, never the variable.
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
  /** Comma-separated origins of the editors that may frame the site ("none": deliberately none). */
  editorOrigins?: string;
  /** Comma-separated origins editor font previews may load from (editor preview builds only). */
  editorFontOrigins?: string;
  /** "1" in the editor preview build: source annotations on. */
  sourceAnnotations?: string;
  /** Where the site is deployed, for absolute Open Graph URLs. */
  siteUrl?: string;
}

/** The variable behind each setting. */
const VARIABLES = {
  serverUrl: 'NEXT_PUBLIC_PLATFORM_SERVER_URL',
  appId: 'NEXT_PUBLIC_PLATFORM_APP_ID',
  appBaseUrl: 'NEXT_PUBLIC_PLATFORM_APP_BASE_URL',
  overrideOrigins: 'NEXT_PUBLIC_OVERRIDE_ORIGINS',
  editorOrigins: 'NEXT_PUBLIC_EDITOR_ORIGINS',
  editorFontOrigins: 'NEXT_PUBLIC_EDITOR_FONT_ORIGINS',
  sourceAnnotations: 'NEXT_PUBLIC_SOURCE_ANNOTATIONS',
  siteUrl: 'NEXT_PUBLIC_SITE_URL',
} as const satisfies Record<keyof BuildEnv, `NEXT_PUBLIC_${string}`>;

/** This build's settings (in the browser: the values Next inlined at build time). */
export function readBuildEnv(): BuildEnv {
  return {
    serverUrl: process.env.NEXT_PUBLIC_PLATFORM_SERVER_URL,
    appId: process.env.NEXT_PUBLIC_PLATFORM_APP_ID,
    appBaseUrl: process.env.NEXT_PUBLIC_PLATFORM_APP_BASE_URL,
    overrideOrigins: process.env.NEXT_PUBLIC_OVERRIDE_ORIGINS,
    editorOrigins: process.env.NEXT_PUBLIC_EDITOR_ORIGINS,
    editorFontOrigins: process.env.NEXT_PUBLIC_EDITOR_FONT_ORIGINS,
    sourceAnnotations: process.env.NEXT_PUBLIC_SOURCE_ANNOTATIONS,
    siteUrl: process.env.NEXT_PUBLIC_SITE_URL,
  };
}

/** The settings of a build from the variables it is given (build steps, which run `next build`). */
export function buildEnvFrom(variables: Readonly<Record<string, string | undefined>>): BuildEnv {
  return Object.fromEntries(Object.entries(VARIABLES).map(([key, name]) => [key, variables[name]])) as BuildEnv;
}

/**
 * Whether this is `next dev`: NODE_ENV, which Next fixes at build time ("production" in every
 * build), so nothing at run time can turn development behaviour on.
 */
export function isDevelopmentBuild(): boolean {
  return process.env.NODE_ENV === 'development';
}

/** Font origins of editor preview builds when NEXT_PUBLIC_EDITOR_FONT_ORIGINS is unset: Google Fonts, which the editor's theme picker uses. */
export const DEFAULT_EDITOR_FONT_ORIGINS = 'https://fonts.googleapis.com,https://fonts.gstatic.com';

/** Written as NEXT_PUBLIC_EDITOR_ORIGINS, deliberately builds a site no editor can frame. */
export const NO_EDITOR = 'none';

/**
 * The variables `next build` gets, from the ones set for it. Font previews are an editor preview
 * feature: preview builds (source annotations on) allow Google Fonts unless told otherwise, and
 * other builds never load editor fonts. "none" editor origins is a decision, not an origin: the
 * build itself gets an empty list.
 */
export function variablesForBuild(set: Readonly<Record<string, string>>): Record<string, string> {
  const variables = { ...set };
  if (variables[VARIABLES.sourceAnnotations] === '1') {
    variables[VARIABLES.editorFontOrigins] ??= DEFAULT_EDITOR_FONT_ORIGINS;
  } else {
    delete variables[VARIABLES.editorFontOrigins];
  }
  if (variables[VARIABLES.editorOrigins]?.trim() === NO_EDITOR) variables[VARIABLES.editorOrigins] = '';
  return variables;
}

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
