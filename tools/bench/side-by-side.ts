/**
 * The site's pages next to an empty Next.js export of the same versions (first-load.ts builds it),
 * under Lighthouse mobile, interleaved in one run: ours `/`, empty `/`, ours `/ComingSoon`, empty
 * `/ComingSoon`, ... and again, so that the machine's load falls on both alike. Only the ratios and
 * differences are goals: absolute figures follow the machine (Lighthouse's `benchmarkIndex` says how
 * fast it was during the run).
 */
import type { Server } from 'node:http';

import { serveStatic } from '../../deploy/static-host/serve';
import { REPOSITORY_ROOT } from '../../emulator/start/cli';
import { startEmulator } from '../../emulator/start/server';
import { median, ratioTo, signed } from '../../support/figures';
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

export interface PageComparison {
  page: string;
  ours: InterleavedResult;
  empty: InterleavedResult;
  /** Our median TBT over the empty export's (1 when both are 0). */
  tbtRatio: number;
  /** Our median LCP minus the empty export's, ms. */
  lcpAboveMs: number;
  /** The empty export's median performance score minus ours. */
  scoreBelow: number;
  met: { tbt: boolean; lcp: boolean; score: boolean };
}

function compare(page: string, ours: InterleavedResult, empty: InterleavedResult): PageComparison {
  const tbtRatio = ratioTo(ours.median.tbtMs, empty.median.tbtMs);
  const lcpAboveMs = ours.median.lcpMs - empty.median.lcpMs;
  const scoreBelow = Math.round((empty.median.performance - ours.median.performance) * 1000) / 1000;
  return {
    page,
    ours,
    empty,
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

/** Where the two exports are served while measuring: origins of ours and the empty one. */
export interface ServedExports {
  ours: string;
  empty: string;
}

/**
 * Serves our export and the empty one from this process (as `npm run serve` does), with the local
 * platform our pages talk to, while `measure` runs.
 */
export async function withExportsServed<T>(
  dirs: { oursDir: string; emptyDir: string },
  measure: (served: ServedExports) => Promise<T>,
): Promise<T> {
  const served = { ours: `http://127.0.0.1:${OURS_PORT}`, empty: `http://127.0.0.1:${EMPTY_PORT}` };
  // Our pages ask the platform for the app's settings: run the emulator the build points at (3001).
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
    return await measure(served);
  } finally {
    await Promise.all(servers.map(closeServer));
    await emulator.close();
  }
}

/** Lighthouse mobile `rounds` times over every page of both served exports, interleaved. */
export async function compareWithEmptyExport(
  served: ServedExports,
  options: {
    rounds: number;
    /** Where every run's whole Lighthouse report is kept (emptied first). */
    reportDir?: string;
    onRun?: (label: string, round: number, figures: LighthouseFigures) => void;
  },
): Promise<PageComparison[]> {
  const targets = AUDITED_PAGES.flatMap((page) => [
    { label: `ours ${page}`, url: `${served.ours}${page}` },
    { label: `empty ${page}`, url: `${served.empty}${page}` },
  ]);
  const results = await lighthouseInterleaved(targets, options.rounds, options);
  return AUDITED_PAGES.map((page, index) => {
    const ours = results[2 * index];
    const empty = results[2 * index + 1];
    if (!ours || !empty) throw new Error(`no Lighthouse result for ${page}`);
    return compare(page, ours, empty);
  });
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

function mainThreadText(ours: LighthouseFigures, empty: LighthouseFigures): string {
  return MAIN_THREAD_KINDS.map(
    ([kind, name]) => `${name} ${Math.round(ours.mainThread[kind] ?? 0)} / ${ms(empty.mainThread[kind] ?? 0)}`,
  ).join(', ');
}

/** The machine's speed during the run, from every Lighthouse run's `benchmarkIndex`. */
export function benchmarkIndexOf(comparisons: readonly PageComparison[]): { median: number; min: number; max: number } {
  const all = comparisons.flatMap(({ ours, empty }) => [...ours.runs, ...empty.runs].map((run) => run.benchmarkIndex));
  return { median: Math.round(median(all)), min: Math.min(...all), max: Math.max(...all) };
}

/** Rows for `npm run bench`'s table: per page, ours, the empty export and the three goals. */
export function sideBySideRows(comparisons: readonly PageComparison[]): [string, string, string][] {
  const rows: [string, string, string][] = [];
  for (const comparison of comparisons) {
    const { page, ours, empty, met } = comparison;
    const rounds = ours.runs.length;
    const other = ours.median;
    rows.push(
      [
        `Lighthouse mobile ${page}: ours / empty export (median of ${rounds})`,
        `${figuresText(ours.median)} / ${figuresText(empty.median)}`,
        `a11y/bp/seo ${[other.accessibility, other.bestPractices, other.seo].map((score) => score.toFixed(2)).join(' / ')}`,
      ],
      [
        `  ratios ${page}`,
        `TBT ×${comparison.tbtRatio.toFixed(2)}, LCP ${signed(comparison.lcpAboveMs, 0)} ms, score ${signed(-comparison.scoreBelow, 2)}`,
        `goals TBT ≤ ×${SIDE_BY_SIDE_GOALS.tbtRatio} ${verdict(met.tbt)}, LCP ≤ +${SIDE_BY_SIDE_GOALS.lcpAboveMs} ms ${verdict(met.lcp)}, score ≥ −${SIDE_BY_SIDE_GOALS.scoreBelow} ${verdict(met.score)}`,
      ],
      [`  main thread ${page}: ours / empty`, mainThreadText(ours.median, empty.median), ''],
    );
  }
  const index = benchmarkIndexOf(comparisons);
  rows.push([
    'Lighthouse benchmarkIndex (this machine, all runs)',
    String(index.median),
    `range ${index.min}–${index.max}; interleaved ours, empty, ours, empty ...`,
  ]);
  return rows;
}
