/**
 * `npm run bench`: builds, then measures in one run and prints as a table and as JSON:
 * first-load JS of `/` against an empty Next.js export (the framework floor), HTML size, Lighthouse
 * (mobile and desktop, median of 3) on `/`, `/ComingSoon` and the 404 page, the SDK bundle against
 * the reference client, time-to-gate-resolved, real-time delivery latency, live queries (latency and
 * CPU per write with 1,000 watches over 20,000 records, one user's 1,000 watches of 10,000 rows,
 * correctness under 10,000 writes with forced reconnects, memory per watch) and the
 * emulator's write and query cost with a data dir at 100 and 50,000 records. Budgets are reported,
 * never enforced by timed tests. `--quick` skips Lighthouse and shortens the real-time run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ensureBuild } from '../../build-steps/site/build-site';
import { serveStatic } from '../../deploy/static-host/serve';
import { REPOSITORY_ROOT } from '../../emulator/start/cli';
import { startEmulator } from '../../emulator/start/server';
import { formatLiveQueryBenchRows, runLiveQueryBench } from '../../support/live-query-load';
import { runRealtimeBench } from '../../support/realtime-load';
import { measureSdkSizes } from '../../support/sdk-size';
import { buildFrameworkFloor, firstLoadChunksContaining, measureFirstLoad } from './first-load';
import { measureGateTiming } from './gate-timing';
import { lighthouseMedian, type FormFactor, type LighthouseFigures } from './lighthouse';
import { formatStoreRows, measureEmulatorStore } from './store-queries';

const ROOT = path.resolve(__dirname, '../..');
const BENCH_PORT = 3090;
const KB = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const BUDGET = { firstLoadAboveFloorBytes: 6 * 1024, mobilePerformance: 0.99, otherCategories: 1 };

async function lighthouseAll(quick: boolean) {
  if (quick) return [];
  // The page asks the platform for its settings: run the emulator the build points at (3001).
  const emulator = await startEmulator({
    port: 3001,
    quiet: true,
    projectDir: REPOSITORY_ROOT,
    siteOrigins: [`http://127.0.0.1:${BENCH_PORT}`],
  });
  const site = await serveStatic({ root: path.join(ROOT, 'out'), host: '127.0.0.1', port: BENCH_PORT });
  try {
    const rows: { page: string; formFactor: FormFactor; figures: LighthouseFigures }[] = [];
    // Lighthouse refuses to audit a document answered with status 404, so the 404 page is audited
    // at /404.html, where static hosts serve the same page with status 200.
    for (const page of ['/', '/ComingSoon', '/404.html']) {
      for (const formFactor of ['mobile', 'desktop'] as const) {
        rows.push({
          page,
          formFactor,
          figures: await lighthouseMedian(`http://127.0.0.1:${BENCH_PORT}${page}`, formFactor, 3),
        });
      }
    }
    return rows;
  } finally {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
    await emulator.close();
  }
}

async function main() {
  const quick = process.argv.includes('--quick');
  console.log('Building the site and an empty Next.js export (the framework floor) ...');
  await ensureBuild({ outDir: 'out' });
  const floor = buildFrameworkFloor(ROOT);
  const site = measureFirstLoad(path.join(ROOT, 'out'));
  const firstLoad = {
    siteGzipBytes: site.gzipBytes,
    floorGzipBytes: floor.gzipBytes,
    aboveFloorBytes: site.gzipBytes - floor.gzipBytes,
    budgetAboveFloorBytes: BUDGET.firstLoadAboveFloorBytes,
    socketIoInFirstLoad: firstLoadChunksContaining(path.join(ROOT, 'out'), /engine\.io|socket\.io/).length > 0,
    bridgeInFirstLoad: firstLoadChunksContaining(path.join(ROOT, 'out'), /visual-edit-agent-ready/).length > 0,
    htmlBytes: site.htmlBytes,
  };

  console.log('Lighthouse ...');
  const lighthouse = await lighthouseAll(quick);
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

  const rows: [string, string, string][] = [
    ['First-load JS of / (gzip)', KB(firstLoad.siteGzipBytes), ''],
    ['Framework floor (empty export, same Next)', KB(firstLoad.floorGzipBytes), ''],
    [
      'Above the floor',
      KB(firstLoad.aboveFloorBytes),
      `budget ≤ ${KB(BUDGET.firstLoadAboveFloorBytes)}: ${firstLoad.aboveFloorBytes <= BUDGET.firstLoadAboveFloorBytes ? 'met' : 'MISSED'}`,
    ],
    [
      'socket.io / editor bridge in first load',
      `${firstLoad.socketIoInFirstLoad ? 'yes' : 'no'} / ${firstLoad.bridgeInFirstLoad ? 'yes' : 'no'}`,
      'expected: no / no',
    ],
    ['HTML of /', KB(firstLoad.htmlBytes), ''],
  ];
  for (const { page, formFactor, figures } of lighthouse) {
    const scores = [figures.performance, figures.accessibility, figures.bestPractices, figures.seo];
    const met =
      (formFactor === 'desktop' || figures.performance >= BUDGET.mobilePerformance) &&
      scores.slice(1).every((s) => s >= BUDGET.otherCategories);
    rows.push([
      `Lighthouse ${formFactor} ${page} (perf/a11y/bp/seo)`,
      scores.map((s) => s.toFixed(2)).join(' / '),
      `LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms, CLS ${figures.cls.toFixed(3)}${formFactor === 'mobile' ? `; budget ${met ? 'met' : 'MISSED'}` : ''}`,
    ]);
  }
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

  const width = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  console.log('\n| measure | value | notes |\n| --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.map((cell, column) => cell.padEnd(width[column] ?? 0)).join(' | ')} |`);

  const json = {
    date: new Date().toISOString(),
    quick,
    firstLoad,
    lighthouse,
    sdk,
    gate,
    realtime,
    liveQueries,
    store,
  };
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
