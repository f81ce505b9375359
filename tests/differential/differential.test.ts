/**
 * The vendor's own local backend (`base44 dev` of the pinned CLI, offline) as an oracle: both
 * backends serve one project (tests/differential/project.ts) and receive the same request
 * sequences (rows.ts) as anonymous, two users and the service role; statuses and normalised bodies
 * must match, or differ exactly as a documented deviation says.
 */
import { rmSync } from 'node:fs';

import { startOurs, startVendor, type Backend } from './backends';
import { differentialDeviations, layerDeviations } from './deviations';
import { Normaliser } from './normalise';
import { APP_ID, warmDenoCache, writeProject } from './project';
import { ROWS as ENTITY_ROWS, type Row, type Seen } from './rows';
import { RULE_ROWS } from './rows-rules';
import { USER_ROWS } from './rows-users';
import { followOwnNotes, followTaskWindow, loadRealtimeCode } from './watch-scenario';

const ROWS: Row[] = [...ENTITY_ROWS, ...RULE_ROWS, ...USER_ROWS];

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

async function run(backend: Backend, row: Row): Promise<Seen[]> {
  const normaliser = new Normaliser();
  const saved = new Map<string, string>();
  const live = row.realtime
    ? await backend.subscribe(row.realtime.actor, `entities:${APP_ID}:${row.realtime.entity}`)
    : null;
  const seen: Seen[] = [];
  for (const step of row.steps) {
    const path = step.path.replace(/\{(\w+)\}/g, (_, name: string) => saved.get(name) ?? `missing-${name}`);
    const answer = await backend.request(step.actor, step.method, path, step.body, step.bare);
    const id = (answer.body as { id?: unknown } | null)?.id;
    if (step.save && typeof id === 'string') {
      saved.set(step.save, id);
      normaliser.known(id);
    }
    const body = normaliser.value(answer.body);
    if (!step.setup) seen.push({ status: answer.status, body });
  }
  if (live) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    live.close();
    seen.push({ status: 0, body: normaliser.value(live.events) });
  }
  return seen;
}

describe('the vendor backend and ours answer alike', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      const [fromVendor, fromOurs] = await Promise.all([run(vendor, row), run(ours, row)]);
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
