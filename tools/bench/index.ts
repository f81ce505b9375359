/**
 * `npm run bench`: builds, then measures in one run and prints as a table and as JSON:
 * first-load JS of `/` against an empty Next.js export (the framework floor), HTML size, Lighthouse
 * mobile on `/`, `/ComingSoon` and the 404 page next to the same pages of the empty export, bare
 * and served with our site-wide headers (page.ts, side-by-side.ts: interleaved, median of
 * `--rounds N`, default 3), the same pages loaded in Chromium at Lighthouse's mobile conditions
 * (support/observed-load.ts, support/served-exports.ts), the SDK bundle against
 * the reference client, time-to-gate-resolved, real-time delivery latency, live queries (latency and
 * CPU per write with 1,000 watches over 20,000 records, one user's 1,000 watches of 10,000 rows,
 * correctness under 10,000 writes with forced reconnects, memory per watch) and the
 * emulator's write and query cost (store-queries.ts) at 100 and 50,000 records. Budgets are reported,
 * never enforced by timed tests. `--quick` skips Lighthouse and the throttled loads and shortens the
 * real-time run; `--page-only` measures the page alone (first load, HTML, Lighthouse, throttled loads).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { formatLiveQueryBenchRows, runLiveQueryBench } from '../../support/live-query-load';
import { runRealtimeBench } from '../../support/realtime-load';
import { measureSdkSizes } from '../../support/sdk-size';
import { measureGateTiming } from './gate-timing';
import { lighthouseRoundsFrom, measurePage } from './page';
import { formatStoreRows, measureEmulatorStore } from './store-queries';

const ROOT = path.resolve(__dirname, '../..');
const KB = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

async function main() {
  const quick = process.argv.includes('--quick');
  const page = await measurePage(quick ? 0 : lighthouseRoundsFrom(process.argv));
  if (process.argv.includes('--page-only')) {
    report(
      {
        date: new Date().toISOString(),
        quick,
        firstLoad: page.firstLoad,
        lighthouse: page.lighthouse,
        observed: page.observed,
      },
      page.rows,
    );
    return;
  }
  console.log('SDK bundle sizes ...');
  const sdk = await measureSdkSizes();
  console.log('Time to gate resolved ...');
  const gate = await measureGateTiming({ latencyMs: 100 });
  console.log('Real-time delivery ...');
  const realtime = await runRealtimeBench(quick ? { clients: 10, durationMs: 2_000 } : {});
  console.log('Live queries ...');
  const liveQueries = await runLiveQueryBench({ quick });
  console.log('Emulator storage (100 and 50,000 records) ...');
  const store = await measureEmulatorStore();

  const rows = [...page.rows];
  rows.push(
    [
      'SDK createClient bundle (gzip)',
      KB(sdk.ours.gzipBytes),
      `reference ${KB(sdk.reference.gzipBytes)}; ratio ${(sdk.ratio * 100).toFixed(1)}% (target ≤ 20%)`,
    ],
    [
      'Time to gate resolved (100 ms latency)',
      `${gate.parallelMedianMs} ms`,
      `sequential flow ${gate.sequentialMedianMs} ms; median of ${gate.runs}`,
    ],
    [
      `Real-time delivery (${realtime.clients} clients, ${realtime.achievedWritesPerSecond.toFixed(0)} writes/s)`,
      `p50 ${realtime.latencyMs.p50.toFixed(1)} ms, p99 ${realtime.latencyMs.p99.toFixed(1)} ms`,
      `${realtime.deliveries}/${realtime.expectedDeliveries} delivered, ${realtime.complete && realtime.ordered ? 'complete and in order' : 'INCOMPLETE or out of order'}`,
    ],
    ...formatLiveQueryBenchRows(liveQueries),
    ...formatStoreRows(store),
  );

  const json = {
    date: new Date().toISOString(),
    quick,
    firstLoad: page.firstLoad,
    lighthouse: page.lighthouse,
    observed: page.observed,
    sdk,
    gate,
    realtime,
    liveQueries,
    store,
  };
  report(json, rows);
}

/** Prints the table and the JSON, and saves the JSON to `.bench/results.json`. */
function report(json: object, rows: readonly (readonly string[])[]): void {
  const width = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  console.log('\n| measure | value | notes |\n| --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.map((cell, column) => cell.padEnd(width[column] ?? 0)).join(' | ')} |`);
  mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
  writeFileSync(path.join(ROOT, '.bench', 'results.json'), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\n${JSON.stringify(json)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
