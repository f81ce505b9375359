/** Declares one Jest test per table row: both clients, one platform, observations compared. */
import { documentedDeviations } from './deviations';
import type { FakeBrowser } from './fake-browser';
import { normalise } from './normalise';
import { observe, type ClientMaker } from './observe';
import { startRecordingPlatform, type RecordingPlatform } from './platform';
import type { TableRow } from './table';

export interface Clients {
  reference: ClientMaker;
  ours: ClientMaker;
}

export function declareRows(
  rows: readonly TableRow[],
  load: () => Promise<{ clients: Clients; browser?: FakeBrowser }>,
): void {
  let platform: RecordingPlatform;
  let loaded: { clients: Clients; browser?: FakeBrowser };
  const documented = documentedDeviations();
  beforeAll(async () => {
    loaded = await load();
    platform = await startRecordingPlatform();
  });
  afterAll(() => platform.close());

  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    if (row.deviation) expect(documented.has(row.deviation.id)).toBe(true);
    const rowNormalise = row.normalise ?? ((observation) => observation);
    const reference = rowNormalise(normalise(await observe(row, loaded.clients.reference, platform, loaded.browser)));
    const ours = rowNormalise(normalise(await observe(row, loaded.clients.ours, platform, loaded.browser)));
    const expected = row.deviation ? row.deviation.adjust(reference) : reference;
    expect(ours).toEqual(expected);
  });
}
