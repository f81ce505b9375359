/**
 * The documented differences between the vendor's local backend and ours: ids read from the table
 * of the "Differential" section of docs/EMULATOR-DEVIATIONS.md, so a row can only claim a difference
 * the document states with its reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const DEVIATIONS_DOC = path.resolve(__dirname, '../../docs/EMULATOR-DEVIATIONS.md');

export function differentialDeviations(): Map<string, string> {
  const ids = new Map<string, string>();
  let inSection = false;
  for (const line of readFileSync(DEVIATIONS_DOC, 'utf8').split('\n')) {
    if (/^##\s/.test(line)) inSection = /^##\s+Differential\b/.test(line);
    if (!inSection) continue;
    const match = /^\|\s*`([a-z0-9-]+)`\s*\|(.*)\|(.*)\|\s*$/.exec(line);
    if (match?.[1]) ids.set(match[1], (match[3] ?? '').trim());
  }
  return ids;
}
