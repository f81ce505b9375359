import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { isJsonObject } from '../core/json-guard';

/**
 * Data dirs written before the database held everything in one `store.json`. On the first start
 * with the database, that file is read once and its contents move into the database (the file is
 * left in place and ignored from then on). A damaged file stops the start instead of being lost.
 */

export const LEGACY_SNAPSHOT_FILE = 'store.json';

export interface LegacySnapshot {
  version: 1;
  token_secret: string;
  accounts: Record<string, unknown>;
  otps: Record<string, unknown>;
  reset_tickets: Record<string, unknown>;
  files: Record<string, unknown>;
  outbox: unknown[];
  apps: Record<
    string,
    {
      entities: Record<string, Record<string, unknown>>;
      conversations: Record<string, unknown>;
      page_visits: unknown[];
    }
  >;
}

export function readLegacySnapshot(dataDir: string): LegacySnapshot | null {
  const file = path.join(dataDir, LEGACY_SNAPSHOT_FILE);
  if (!existsSync(file)) return null;
  const fail = (why: string): never => {
    throw new Error(
      `The old emulator data file ${file} cannot be moved into the database (${why}). Fix or remove it to start.`,
    );
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    return fail(`not valid JSON: ${(error as Error).message}`);
  }
  if (!isJsonObject(parsed) || parsed.version !== 1 || typeof parsed.token_secret !== 'string')
    return fail('not a version 1 store');
  for (const key of ['accounts', 'otps', 'reset_tickets', 'files', 'apps'] as const)
    if (!isJsonObject(parsed[key])) fail(`"${key}" is not an object`);
  if (!Array.isArray(parsed.outbox)) fail('"outbox" is not a list');
  for (const [id, app] of Object.entries(parsed.apps as Record<string, unknown>)) {
    if (
      !isJsonObject(app) ||
      !isJsonObject(app.entities) ||
      !isJsonObject(app.conversations) ||
      !Array.isArray(app.page_visits)
    )
      fail(`app "${id}" is damaged`);
  }
  return parsed as unknown as LegacySnapshot;
}
