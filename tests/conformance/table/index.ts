/**
 * THE table: every row runs with both clients against the same recording platform. Rows marked
 * `browser` run in the stubbed browser (browser.test.ts), the rest in plain Node (node.test.ts).
 */
import type { Row } from '../observe';
import { actorRows } from './actors';
import { agentRows } from './agents';
import { authRows } from './auth';
import { browserRows } from './browser';
import { callRows } from './calls';
import { entityRows, entitySocketRows } from './entities';
import { exportRows } from './exports';
import { fileRows } from './files';
import { minimalWindowRows } from './minimal-window';
import { realtimeRows } from './realtime';

export type TableRow = Row;

export const TABLE: readonly TableRow[] = [
  ...entityRows,
  ...entitySocketRows,
  ...authRows,
  ...callRows,
  ...agentRows,
  ...browserRows,
  ...minimalWindowRows,
  ...exportRows,
  ...actorRows,
  ...realtimeRows,
  ...fileRows,
];

/**
 * Reference methods our client does not match yet. Each must be a real method of the reference; the
 * suite fails for any other uncovered or missing method.
 */
export const NOT_YET_CONFORMANT: ReadonlyMap<string, string> = new Map([]);
