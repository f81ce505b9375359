/**
 * Which Base44 app a deploy build (`npm run build`, the `buildCommand` `base44 site deploy` runs) is
 * for. The app id comes from, in this order: NEXT_PUBLIC_PLATFORM_APP_ID (set by hand),
 * VITE_BASE44_APP_ID (what the vendor CLI passes to the build for the linked app), or the link file
 * base44/.app.jsonc (`npx base44 link`). Sources that disagree stop the build: a site built for one
 * app and published to another would talk to the wrong data. A linked app lives on the Base44
 * platform, so its server defaults to https://base44.app (the reference client's default) unless
 * NEXT_PUBLIC_PLATFORM_SERVER_URL says otherwise.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';

import { acceptAppId } from '../../lib/config/origin-allowlist';

/** The platform every app linked with the vendor CLI lives on. */
export const BASE44_SERVER_URL = 'https://base44.app';

export const APP_LINK_FILE = path.join('base44', '.app.jsonc');

interface AppIdSource {
  from: string;
  id: string;
}

function readAppLink(root: string): AppIdSource | null {
  const file = path.join(root, APP_LINK_FILE);
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON5.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${APP_LINK_FILE} is not valid JSONC: ${error instanceof Error ? error.message : error}`);
  }
  const id =
    typeof parsed === 'object' && parsed !== null && Object.hasOwn(parsed, 'id')
      ? Reflect.get(parsed, 'id')
      : undefined;
  if (typeof id !== 'string' || acceptAppId(id) === null) {
    throw new Error(`${APP_LINK_FILE} has no valid "id" (copy base44/.app.jsonc.example, or run \`npx base44 link\`).`);
  }
  return { from: APP_LINK_FILE, id };
}

function fromEnv(env: Readonly<Record<string, string | undefined>>, name: string): AppIdSource | null {
  const value = env[name]?.trim();
  if (!value) return null;
  if (acceptAppId(value) === null)
    throw new Error(`${name}="${value}" is not an app id (letters, digits, "_" and "-").`);
  return { from: name, id: value };
}

/**
 * The NEXT_PUBLIC_* settings the linked app adds to a deploy build's environment (empty when no app
 * is linked or named), and a line saying where they came from. Throws when the sources disagree.
 */
export function linkedAppSettings(
  env: Readonly<Record<string, string | undefined>>,
  root: string,
): { settings: Record<string, string>; description: string | null } {
  const sources = [
    fromEnv(env, 'NEXT_PUBLIC_PLATFORM_APP_ID'),
    fromEnv(env, 'VITE_BASE44_APP_ID'),
    readAppLink(root),
  ].filter((source): source is AppIdSource => source !== null);
  const [chosen] = sources;
  if (!chosen) return { settings: {}, description: null };
  const conflicting = sources.find((source) => source.id !== chosen.id);
  if (conflicting) {
    throw new Error(
      `Refusing to build: ${chosen.from} names app "${chosen.id}" but ${conflicting.from} names "${conflicting.id}". Make them agree (or unset one) so the site is built for the app it is deployed to.`,
    );
  }
  const settings: Record<string, string> = { NEXT_PUBLIC_PLATFORM_APP_ID: chosen.id };
  const linked = chosen.from !== 'NEXT_PUBLIC_PLATFORM_APP_ID';
  if (linked && !env.NEXT_PUBLIC_PLATFORM_SERVER_URL?.trim())
    settings.NEXT_PUBLIC_PLATFORM_SERVER_URL = BASE44_SERVER_URL;
  const server = settings.NEXT_PUBLIC_PLATFORM_SERVER_URL ?? env.NEXT_PUBLIC_PLATFORM_SERVER_URL ?? '(unset)';
  return { settings, description: `App ${chosen.id} (from ${chosen.from}) on ${server}` };
}
