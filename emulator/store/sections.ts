import { isJsonObject } from '../core/json-guard';

/**
 * The few small rows of the `state` table: `core` (the token secret) and an `app:{id}` marker per app
 * the store has seen (so the seed adds an app's members only once). Each is written once, when it
 * comes to be; everything that changes (accounts, codes, tickets, ended sessions, lists) has a row
 * per entry (entries.ts), so a commit never rewrites what it did not touch.
 */

export const CORE_SECTION = 'core';
const APP_SECTION_PREFIX = 'app:';

export function parseSection(body: string, name: string, source: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    throw new Error(
      `The emulator database in ${source} holds invalid JSON in "${name}" (${(error as Error).message}).`,
    );
  }
}

export interface RestoredCore {
  tokenSecret: string;
  /** The apps the store had seen. */
  apps: string[];
}

/** Reads the core and the app markers; null for a database that holds none yet; throws when damaged. */
export function restoreCore(sections: ReadonlyMap<string, string>, source: string): RestoredCore | null {
  const coreText = sections.get(CORE_SECTION);
  if (coreText === undefined) return null;
  const fail = (why: string): never => {
    throw new Error(`The emulator database in ${source} is damaged (${why}).`);
  };
  const core = parseSection(coreText, CORE_SECTION, source);
  if (!isJsonObject(core)) return fail('core is not an object');
  if (core.version !== 1) fail(`core version ${String(core.version)}`);
  if (typeof core.token_secret !== 'string' || core.token_secret.length < 16) fail('missing token secret');
  const apps: string[] = [];
  for (const [name, body] of sections) {
    if (!name.startsWith(APP_SECTION_PREFIX)) continue;
    if (!isJsonObject(parseSection(body, name, source))) fail(`"${name}" is damaged`);
    apps.push(name.slice(APP_SECTION_PREFIX.length));
  }
  return { tokenSecret: core.token_secret as string, apps };
}

export function coreSection(tokenSecret: string): string {
  return JSON.stringify({ version: 1, token_secret: tokenSecret });
}

export function appSectionName(appId: string): string {
  return APP_SECTION_PREFIX + appId;
}
