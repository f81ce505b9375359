/**
 * The vendor's own local backend (`base44 dev` of the pinned CLI, offline) as an oracle: both
 * backends serve one project (tests/differential/project.ts) and receive the same request
 * sequences (rows.ts) as anonymous, two users and the service role; statuses and normalised bodies
 * must match, or differ exactly as a documented deviation says.
 */
import { rmSync } from 'node:fs';

import { startOurs, startVendor, type Backend } from './backends';
import { differentialDeviations, layerDeviations } from './deviations';
import { warmDenoCache, writeProject } from './project';
import { ROWS as ENTITY_ROWS, type Row } from './rows';
import { AUTH_ROWS } from './rows-auth';
import { EDGE_ROWS } from './rows-edges';
import { FILE_ROWS } from './rows-files';
import { RULE_ROWS } from './rows-rules';
import { USER_ROWS } from './rows-users';
import { runRow } from './run-row';
import { followOwnNotes, followTaskWindow, loadRealtimeCode } from './watch-scenario';

const ROWS: Row[] = [...ENTITY_ROWS, ...RULE_ROWS, ...USER_ROWS, ...AUTH_ROWS, ...EDGE_ROWS, ...FILE_ROWS];

jest.setTimeout(180_000);

let projectDir: string;
let vendor: Backend;
let ours: Backend;

beforeAll(async () => {
  projectDir = writeProject();
  // The vendor gives a function 30 s to start; on a machine that has never fetched the function's
  // `npm:` imports, the download alone can take longer. Fetch them into the shared cache first.
  warmDenoCache(projectDir);
  [vendor, ours] = await Promise.all([startVendor(projectDir), startOurs(projectDir), loadRealtimeCode()]);
});
afterAll(async () => {
  await Promise.allSettled([vendor?.stop(), ours?.stop()]);
  rmSync(projectDir, { recursive: true, force: true });
});

describe('the vendor backend and ours answer alike', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      const [fromVendor, fromOurs] = await Promise.all([runRow(vendor, row), runRow(ours, row)]);
      if (row.deviation) row.deviation.differs(fromVendor, fromOurs);
      else expect(fromOurs).toEqual(fromVendor);
    });
  }
});

describe('watch() on both backends: server-held on ours, kept by the client on the vendor backend', () => {
  it('follows a sorted, limited window: entries, exits, a delete that slides the next record in', async () => {
    const [onVendor, onOurs] = await Promise.all([followTaskWindow(vendor), followTaskWindow(ours)]);
    expect(onOurs.snapshots.at(-1)?.entities.map((task) => task.title)).toEqual(['e1', 'e15', 'e20']);
    expect(onVendor.snapshots.at(-1)?.entities.map((task) => task.title)).toEqual(['e1', 'e15', 'e20']);
    // Ours answers subscribe_query: the one list over HTTP is the read made at once while the client
    // cannot know the server's kind yet, and no change reads. The vendor's never answers: the fallback loads.
    expect(onOurs.listLoads).toBe(1);
    expect(onVendor.listLoads).toBeGreaterThan(1);
  });

  it('never holds a record the watcher may not read, although the vendor socket sends it', async () => {
    for (const run of await Promise.all([followOwnNotes(vendor), followOwnNotes(ours)])) {
      const seen = JSON.stringify(run.snapshots);
      expect(seen).toContain('user note');
      expect(seen).not.toContain('admin');
    }
  });
});

describe('the deviations table', () => {
  const claimed = new Set(ROWS.flatMap((row) => (row.deviation ? [row.deviation.id] : [])));

  it('every row claims a documented deviation', () => {
    const documented = new Set([...differentialDeviations().keys(), ...layerDeviations().keys()]);
    expect([...claimed].filter((id) => !documented.has(id))).toEqual([]);
  });

  it('every row of the Differential table is used by a row', () => {
    expect([...differentialDeviations().keys()].filter((id) => !claimed.has(id))).toEqual([]);
  });
});
