/**
 * The site's pages next to an empty Next.js export of the same versions (first-load.ts builds it),
 * under Lighthouse mobile, interleaved in one run: ours `/`, empty `/`, empty with our headers `/`,
 * ours `/ComingSoon`, ... and again, so that the machine's load falls on all alike. Only the ratios and
 * differences are goals: absolute figures follow the machine (Lighthouse's `benchmarkIndex` says how
 * fast it was during the run).
 *
 * The empty export is measured twice from about:blank, where Lighthouse starts: as a host without
 * our configuration serves it, the reference issue 36 names, and with the headers every answer of
 * ours carries whatever the page holds (`siteWideRules`: Cross-Origin-Opener-Policy among them,
 * which costs a page a renderer of its own in that navigation). Ours and the bare empty export are
 * also audited from a page of another site (Lighthouse's `blankPage`), as a visitor arrives: there
 * both get a renderer of their own, headers or not, and the pages are compared alone
 * (docs/PERFORMANCE.md, "Where a visitor comes from").
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

import { loadCompiledEmulator } from '../../build-steps/emulator/compile-emulator';
import { toHeadersFile } from '../../deploy/headers/formats';
import { siteWideRules } from '../../deploy/headers/policy';
import { serveStatic } from '../../deploy/static-host/serve';
import { REPOSITORY_ROOT } from '../../emulator/start/cli';
import { median, ratioTo, signed } from '../../support/figures';
import { exportTargets, resultsByPage, type PerExport, type ServedExports } from '../../support/served-exports';
import { lighthouseInterleaved, type InterleavedResult, type LighthouseFigures } from './lighthouse';

/**
 * The pages audited. Lighthouse refuses to audit a document answered with status 404, so the 404
 * page is audited at /404.html, where static hosts serve the same page with status 200.
 */
export const AUDITED_PAGES = ['/', '/ComingSoon', '/404.html'] as const;

/** The goals, against the empty export's figures of the same run (issue 36). */
export const SIDE_BY_SIDE_GOALS = { tbtRatio: 1.3, lcpAboveMs: 150, scoreBelow: 0.02 };

const OURS_PORT = 3090;
const EMPTY_PORT = 3091;
const EMPTY_SAME_HEADERS_PORT = 3092;
/**
 * The page of another site, served on loopback but addressed as `localhost`: a site is a scheme and
 * a host without the port, so any 127.0.0.1 address would be the exports' own site.
 */
const ELSEWHERE_PORT = 3094;
const ELSEWHERE_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Another site</title>' +
  '<p>A page of another site: a search result, a link, where a visitor comes from.</p></html>';

/** Our medians against one reference's, and the goals judged on them. */
export interface Ratios {
  /** Our median TBT over the reference's (1 when both are 0). */
  tbtRatio: number;
  /** Our median LCP minus the reference's, ms. */
  lcpAboveMs: number;
  /** The reference's median performance score minus ours. */
  scoreBelow: number;
  met: { tbt: boolean; lcp: boolean; score: boolean };
}

/**
 * `empty` is issue 36's reference; `emptySameHeaders` has our site-wide headers (`siteWideRules`);
 * `arriving` compares ours and the bare empty export both reached from a page of another site.
 */
export interface PageComparison extends PerExport<InterleavedResult> {
  page: string;
  againstEmpty: Ratios;
  againstSameHeaders: Ratios;
  arriving: Ratios;
}

function ratiosTo(ours: InterleavedResult, reference: InterleavedResult): Ratios {
  const tbtRatio = ratioTo(ours.median.tbtMs, reference.median.tbtMs);
  const lcpAboveMs = ours.median.lcpMs - reference.median.lcpMs;
  const scoreBelow = Math.round((reference.median.performance - ours.median.performance) * 1000) / 1000;
  return {
    tbtRatio,
    lcpAboveMs,
    scoreBelow,
    met: {
      tbt: tbtRatio <= SIDE_BY_SIDE_GOALS.tbtRatio,
      lcp: lcpAboveMs <= SIDE_BY_SIDE_GOALS.lcpAboveMs,
      score: scoreBelow <= SIDE_BY_SIDE_GOALS.scoreBelow,
    },
  };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A copy of the empty export beside it whose `_headers` holds only our site-wide rules. */
function emptyExportWithSiteHeaders(emptyDir: string): string {
  const copy = `${emptyDir}-site-headers`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(emptyDir, copy, { recursive: true });
  writeFileSync(`${copy}/_headers`, toHeadersFile(siteWideRules()));
  return copy;
}

/** A server that answers every request with the page of another site. */
function anotherSite(port: number): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(ELSEWHERE_PAGE);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Serves our export and the empty one (bare and with our site-wide headers) from this process (as
 * `npm run serve` does), the page of another site, and the local platform our pages talk to, while
 * `measure` runs.
 */
export async function withExportsServed<T>(
  dirs: { oursDir: string; emptyDir: string },
  measure: (served: ServedExports) => Promise<T>,
): Promise<T> {
  const served = {
    ours: `http://127.0.0.1:${OURS_PORT}`,
    empty: `http://127.0.0.1:${EMPTY_PORT}`,
    emptySameHeaders: `http://127.0.0.1:${EMPTY_SAME_HEADERS_PORT}`,
    elsewhere: `http://localhost:${ELSEWHERE_PORT}`,
  };
  const sameHeadersDir = emptyExportWithSiteHeaders(dirs.emptyDir);
  // Our pages ask the platform for the app's settings: run the emulator the build points at (3001).
  const { startEmulator } = await loadCompiledEmulator();
  const emulator = await startEmulator({
    port: 3001,
    quiet: true,
    projectDir: REPOSITORY_ROOT,
    siteOrigins: [served.ours],
  });
  const servers: Server[] = [];
  try {
    servers.push(await serveStatic({ root: dirs.oursDir, host: '127.0.0.1', port: OURS_PORT }));
    servers.push(await serveStatic({ root: dirs.emptyDir, host: '127.0.0.1', port: EMPTY_PORT }));
    servers.push(await serveStatic({ root: sameHeadersDir, host: '127.0.0.1', port: EMPTY_SAME_HEADERS_PORT }));
    servers.push(await anotherSite(ELSEWHERE_PORT));
    return await measure(served);
  } finally {
    await Promise.all(servers.map(closeServer));
    await emulator.close();
  }
}

/** Lighthouse mobile `rounds` times over every page of the served exports and starts, interleaved. */
export async function compareWithEmptyExport(
  served: ServedExports,
  options: {
    rounds: number;
    /** Where every run's whole Lighthouse report is kept (emptied first). */
    reportDir?: string;
    onRun?: (label: string, round: number, figures: LighthouseFigures) => void;
  },
): Promise<PageComparison[]> {
  const results = await lighthouseInterleaved(exportTargets(served, AUDITED_PAGES), options.rounds, options);
  return resultsByPage(AUDITED_PAGES, results).map((byExport) => ({
    ...byExport,
    againstEmpty: ratiosTo(byExport.ours, byExport.empty),
    againstSameHeaders: ratiosTo(byExport.ours, byExport.emptySameHeaders),
    arriving: ratiosTo(byExport.oursArriving, byExport.emptyArriving),
  }));
}

const ms = (value: number) => `${Math.round(value)} ms`;
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

/** One line per page and export: `perf 0.97, LCP 812 ms, TBT 204 ms`. */
function figuresText({ performance, fcpMs, lcpMs, tbtMs }: LighthouseFigures): string {
  return `perf ${performance.toFixed(2)}, FCP ${ms(fcpMs)}, LCP ${ms(lcpMs)}, TBT ${ms(tbtMs)}`;
}

/** The kinds of main-thread work the issue named, Lighthouse's groups. */
const MAIN_THREAD_KINDS = [
  ['styleLayout', 'style and layout'],
  ['parseHTML', 'HTML parse'],
  ['scriptEvaluation', 'script evaluation'],
] as const;

function mainThreadText(...exports: LighthouseFigures[]): string {
  return MAIN_THREAD_KINDS.map(
    ([kind, name]) => `${name} ${exports.map((figures) => ms(figures.mainThread[kind] ?? 0)).join(' / ')}`,
  ).join(', ');
}

/** The machine's speed during the run, from every Lighthouse run's `benchmarkIndex`. */
export function benchmarkIndexOf(comparisons: readonly PageComparison[]): { median: number; min: number; max: number } {
  const all = comparisons.flatMap(({ ours, empty, emptySameHeaders, oursArriving, emptyArriving }) =>
    [ours, empty, emptySameHeaders, oursArriving, emptyArriving].flatMap((result) =>
      result.runs.map((run) => run.benchmarkIndex),
    ),
  );
  return { median: Math.round(median(all)), min: Math.min(...all), max: Math.max(...all) };
}

function ratiosRow(label: string, ratios: Ratios): [string, string, string] {
  const { met } = ratios;
  return [
    label,
    `TBT ×${ratios.tbtRatio.toFixed(2)}, LCP ${signed(ratios.lcpAboveMs, 0)} ms, score ${signed(-ratios.scoreBelow, 2)}`,
    `goals TBT ≤ ×${SIDE_BY_SIDE_GOALS.tbtRatio} ${verdict(met.tbt)}, LCP ≤ +${SIDE_BY_SIDE_GOALS.lcpAboveMs} ms ${verdict(met.lcp)}, score ≥ −${SIDE_BY_SIDE_GOALS.scoreBelow} ${verdict(met.score)}`,
  ];
}

/**
 * Rows for `npm run bench`'s table: per page, from about:blank ours and the empty export (bare and
 * with our site-wide headers), from the page of another site ours and the bare empty export, the
 * goals against each, and the main thread by kind.
 */
export function sideBySideRows(comparisons: readonly PageComparison[]): [string, string, string][] {
  const rows: [string, string, string][] = [];
  for (const comparison of comparisons) {
    const { page, ours, empty, emptySameHeaders, oursArriving, emptyArriving } = comparison;
    const rounds = ours.runs.length;
    const other = ours.median;
    rows.push(
      [
        `Lighthouse mobile ${page}: ours / empty export / empty export with our headers (median of ${rounds})`,
        [ours, empty, emptySameHeaders].map((result) => figuresText(result.median)).join(' / '),
        `a11y/bp/seo ${[other.accessibility, other.bestPractices, other.seo].map((score) => score.toFixed(2)).join(' / ')}`,
      ],
      ratiosRow(`  ratios ${page} to the empty export`, comparison.againstEmpty),
      ratiosRow(`  ratios ${page} to it with our headers`, comparison.againstSameHeaders),
      [
        `  from a page of another site ${page}: ours / empty export`,
        [oursArriving, emptyArriving].map((result) => figuresText(result.median)).join(' / '),
        'both get a renderer of their own, as a visitor arriving from a link or search does',
      ],
      ratiosRow(`  ratios ${page} from another site to the empty export`, comparison.arriving),
      [
        `  main thread ${page}: ours / empty / with our headers`,
        mainThreadText(ours.median, empty.median, emptySameHeaders.median),
        '',
      ],
    );
  }
  const index = benchmarkIndexOf(comparisons);
  rows.push([
    'Lighthouse benchmarkIndex (this machine, all runs)',
    String(index.median),
    `range ${index.min}–${index.max}; interleaved ours, empty, empty with our headers, both from another site, ours ...`,
  ]);
  return rows;
}
