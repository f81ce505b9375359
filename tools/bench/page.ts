/**
 * `npm run bench`'s figures of the page itself: the build, its first-load JavaScript against the
 * empty export of the same Next.js (the framework floor), the HTML of `/`, and Lighthouse mobile on
 * every page next to the empty export's (side-by-side.ts).
 */
import path from 'node:path';

import { ensureBuild } from '../../build-steps/site/build-site';
import { compareObserved, observedRows, type ObservedComparison } from '../../support/observed-load';
import { buildFrameworkFloor, firstLoadChunksContaining, measureFirstLoad } from './first-load';
import type { LighthouseFigures } from './lighthouse';
import {
  AUDITED_PAGES,
  compareWithEmptyExport,
  sideBySideRows,
  withExportsServed,
  type PageComparison,
} from './side-by-side';

const ROOT = path.resolve(__dirname, '../..');
const KB = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const LIGHTHOUSE_REPORTS = path.join(ROOT, '.bench', 'lighthouse');
/**
 * Throttled loads per page, export and start: their spread is small (docs/PERFORMANCE.md), and a
 * load takes 3–5 s (5–8 s from the page of another site, loaded first).
 */
const OBSERVED_ROUNDS = 5;
export const PAGE_BUDGET = { firstLoadAboveFloorBytes: 6 * 1024, htmlGzipBytes: 6 * 1024 };

const within = (value: number, budget: number) => `budget ≤ ${KB(budget)}: ${value <= budget ? 'met' : 'MISSED'}`;

/** `--rounds N`: Lighthouse rounds over all pages, at least 3 (the fewest a median means something of). */
export function lighthouseRoundsFrom(argv: readonly string[]): number {
  const at = argv.indexOf('--rounds');
  const rounds = at >= 0 ? Number(argv[at + 1]) : 3;
  if (!Number.isInteger(rounds) || rounds < 3) throw new Error('--rounds takes a whole number of at least 3');
  return rounds;
}

function printRun(label: string, round: number, figures: LighthouseFigures): void {
  console.log(
    `  round ${round} ${label}: perf ${figures.performance.toFixed(2)}, FCP ${figures.fcpMs} ms, LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms, benchmarkIndex ${figures.benchmarkIndex}`,
  );
}

/** Builds `out/` (when stale) and the floor, then measures; Lighthouse is left out when `rounds` is 0. */
export async function measurePage(rounds: number) {
  console.log('Building the site and an empty Next.js export (the framework floor) ...');
  await ensureBuild({ outDir: 'out' });
  const floor = buildFrameworkFloor(ROOT);
  const out = path.join(ROOT, 'out');
  const site = measureFirstLoad(out);
  const firstLoad = {
    siteGzipBytes: site.gzipBytes,
    floorGzipBytes: floor.gzipBytes,
    aboveFloorBytes: site.gzipBytes - floor.gzipBytes,
    budgetAboveFloorBytes: PAGE_BUDGET.firstLoadAboveFloorBytes,
    socketIoInFirstLoad: firstLoadChunksContaining(out, /engine\.io|socket\.io/).length > 0,
    bridgeInFirstLoad: firstLoadChunksContaining(out, /visual-edit-agent-ready/).length > 0,
    htmlBytes: site.htmlBytes,
    htmlGzipBytes: site.htmlGzipBytes,
  };

  let lighthouse: PageComparison[] = [];
  let observed: ObservedComparison[] = [];
  if (rounds > 0) {
    await withExportsServed({ oursDir: out, emptyDir: floor.outDir }, async (served) => {
      console.log(
        `Lighthouse mobile, ours and the empty export (bare and with our headers; from about:blank and from another site) in turn, ${rounds} rounds ...`,
      );
      lighthouse = await compareWithEmptyExport(served, { rounds, reportDir: LIGHTHOUSE_REPORTS, onRun: printRun });
      console.log(`Every run's Lighthouse report: ${path.relative(ROOT, LIGHTHOUSE_REPORTS)}/`);
      const loads = Math.max(rounds, OBSERVED_ROUNDS);
      console.log(`Throttled loads in Chromium, the same exports and starts in turn, ${loads} rounds ...`);
      observed = await compareObserved(served, AUDITED_PAGES, loads);
    });
  }
  const rows: [string, string, string][] = [
    ['First-load JS of / (gzip)', KB(firstLoad.siteGzipBytes), ''],
    ['Framework floor (empty export, same Next)', KB(firstLoad.floorGzipBytes), ''],
    [
      'Above the floor',
      KB(firstLoad.aboveFloorBytes),
      within(firstLoad.aboveFloorBytes, PAGE_BUDGET.firstLoadAboveFloorBytes),
    ],
    [
      'socket.io / editor bridge in first load',
      `${firstLoad.socketIoInFirstLoad ? 'yes' : 'no'} / ${firstLoad.bridgeInFirstLoad ? 'yes' : 'no'}`,
      'expected: no / no',
    ],
    [
      'HTML of / (gzip)',
      KB(firstLoad.htmlGzipBytes),
      `${KB(firstLoad.htmlBytes)} raw; ${within(firstLoad.htmlGzipBytes, PAGE_BUDGET.htmlGzipBytes)}`,
    ],
    ...(lighthouse.length > 0 ? sideBySideRows(lighthouse) : []),
    ...observedRows(observed),
  ];
  return { firstLoad, lighthouse, observed, rows };
}
