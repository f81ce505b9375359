/**
 * The documented differences between the vendor's local backend and ours: ids read from the tables
 * of docs/EMULATOR-DEVIATIONS.md ("Differential", and "Security" or "Schemas" where those layers
 * recorded one), so a row can only claim a difference the document states with its reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const DEVIATIONS_DOC = path.resolve(__dirname, '../../docs/EMULATOR-DEVIATIONS.md');

/** Ids and reasons of one `## <section>` table of the document. */
export function deviationsOf(section: string): Map<string, string> {
  const ids = new Map<string, string>();
  let inSection = false;
  for (const line of readFileSync(DEVIATIONS_DOC, 'utf8').split('\n')) {
    if (/^##\s/.test(line)) inSection = line.replace(/^##\s+/, '').trim() === section;
    if (!inSection) continue;
    const match = /^\|\s*`([a-z0-9-]+)`\s*\|(.*)\|(.*)\|\s*$/.exec(line);
    if (match?.[1]) ids.set(match[1], (match[3] ?? '').trim());
  }
  return ids;
}

/** The suite's own table; every row of it must be used. */
export const differentialDeviations = () => deviationsOf('Differential');
/** The security and schema layers' tables (found by running the vendor backend by hand); rows may claim their ids. */
export const layerDeviations = () => new Map([...deviationsOf('Security'), ...deviationsOf('Schemas')]);
