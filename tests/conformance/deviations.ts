/**
 * The documented deviations: ids read from the table in docs/SDK-DEVIATIONS.md, so a row can only
 * claim a difference that the document states (with its reason).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const DEVIATIONS_DOC = path.resolve(__dirname, '../../docs/SDK-DEVIATIONS.md');

/** Ids in the first column of the deviations table (`` `id` ``), with the reason column. */
export function documentedDeviations(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const line of readFileSync(DEVIATIONS_DOC, 'utf8').split('\n')) {
    const match = /^\|\s*`([a-z0-9-]+)`\s*\|(.*)\|(.*)\|\s*$/.exec(line);
    if (match?.[1]) ids.set(match[1], (match[3] ?? '').trim());
  }
  return ids;
}
