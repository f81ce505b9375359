/**
 * Real loads of a page under the conditions Lighthouse's mobile run simulates (4× slower CPU, 150 ms
 * round trips, 1.6 Mbit/s), measured in the browser instead of simulated: what the main thread
 * actually blocked for, beside the empty export's, interleaved in one run.
 *
 * Why beside Lighthouse: its mobile figures are simulated (Lantern) from one fast load, and the
 * blocking time it gives counts the tasks its simulation places after its simulated first paint. For
 * our page, whose first paint waits for a stylesheet, that placement charges tasks of the document
 * (its parse, the first style and layout) that a browser runs before the paint; here, Chromium
 * itself runs the page throttled (DevTools protocol CPU and network emulation), reports its long
 * tasks (`longtask` entries) and paints, and the blocking time is taken from those as Lighthouse
 * defines it: each task's time beyond 50 ms, from the first contentful paint on
 * (docs/PERFORMANCE.md, "What a throttled load blocks").
 *
 * Hand-written, about a hundred lines: Lighthouse's own observed mode (`--throttling-method=devtools`)
 * measures the same but takes 25–35 s a load here and throttles each request's latency (562 ms), which
 * turns a stylesheet's round trip into a second.
 */
import { chromium, type Browser } from '@playwright/test';

import { PLAYWRIGHT_CHROMIUM_FLAGS, resolveBrowser } from './browser';
import { median, ratioTo, signed } from './figures';
import {
  exportTargets,
  resultsByPage,
  type MeasuredTarget,
  type PerExport,
  type ServedExports,
} from './served-exports';

/** Lighthouse 13's mobile settings for its simulation (`constants.throttling.mobileSlow4G`). */
export const OBSERVED_CONDITIONS = { cpuSlowdown: 4, rttMs: 150, downloadKbps: 1638.4, uploadKbps: 750 } as const;

/** A task's time beyond this counts as blocking (Lighthouse's and the Long Tasks API's threshold). */
const BLOCKING_THRESHOLD_MS = 50;
/** The load counts as settled after this long without a long task (as Lighthouse's TTI window, shorter). */
const QUIET_MS = 3_000;
/** At most this long after the load event. */
const SETTLE_LIMIT_MS = 15_000;

export interface MainThreadTask {
  startMs: number;
  durationMs: number;
}

/**
 * Total blocking time from `fromMs` on: each task's time beyond 50 ms, counting only its part after
 * `fromMs` (Lighthouse clips a task that straddles the first paint the same way).
 */
export function blockingTimeAfter(tasks: readonly MainThreadTask[], fromMs: number): number {
  let total = 0;
  for (const { startMs, durationMs } of tasks) {
    const counted = startMs + durationMs - Math.max(startMs, fromMs);
    if (counted > BLOCKING_THRESHOLD_MS) total += counted - BLOCKING_THRESHOLD_MS;
  }
  return total;
}

export interface ObservedFigures {
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  longestTaskMs: number;
}

export interface ObservedResult {
  label: string;
  url: string;
  runs: ObservedFigures[];
  median: ObservedFigures;
}

interface PageRecord {
  tasks: MainThreadTask[];
  fcpMs: number | null;
  lcpMs: number | null;
  msSinceLastTask: number;
}

/** Runs in the page before its own scripts: keeps every long task and the largest paint. */
function recordMainThread(): void {
  const record = { tasks: [] as { startMs: number; durationMs: number }[], lcpMs: null as number | null };
  (window as unknown as { __observedLoad: typeof record }).__observedLoad = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.tasks.push({ startMs: entry.startTime, durationMs: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.lcpMs = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

function readRecord(): PageRecord {
  const record = (window as unknown as { __observedLoad: { tasks: MainThreadTask[]; lcpMs: number | null } })
    .__observedLoad;
  const last = record.tasks.reduce((latest, task) => Math.max(latest, task.startMs + task.durationMs), 0);
  return {
    tasks: record.tasks,
    lcpMs: record.lcpMs,
    fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    msSinceLastTask: performance.now() - last,
  };
}

/**
 * One load of `target.url` in a fresh context, throttled, from about:blank or, when `startFrom` names
 * it, from that page (loaded first, throttled alike): the navigation a visitor makes by typing the
 * address or following a link while on another site.
 */
async function loadOnce(browser: Browser, { url, startFrom }: MeasuredTarget): Promise<ObservedFigures> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(recordMainThread);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: OBSERVED_CONDITIONS.cpuSlowdown });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: OBSERVED_CONDITIONS.rttMs,
      downloadThroughput: (OBSERVED_CONDITIONS.downloadKbps * 1024) / 8,
      uploadThroughput: (OBSERVED_CONDITIONS.uploadKbps * 1024) / 8,
    });
    if (startFrom) await page.goto(startFrom, { waitUntil: 'load' });
    await page.goto(url, { waitUntil: 'load' });
    const loadedAt = Date.now();
    let record = await page.evaluate(readRecord);
    while (record.msSinceLastTask < QUIET_MS && Date.now() - loadedAt < SETTLE_LIMIT_MS) {
      await page.waitForTimeout(250);
      record = await page.evaluate(readRecord);
    }
    const { tasks, fcpMs, lcpMs } = record;
    if (fcpMs === null || lcpMs === null) throw new Error(`${url}: no first or largest contentful paint was reported`);
    return {
      fcpMs,
      lcpMs,
      tbtMs: blockingTimeAfter(tasks, fcpMs),
      longestTaskMs: Math.max(0, ...tasks.map((task) => task.durationMs)),
    };
  } finally {
    await context.close();
  }
}

/** Every target loaded `rounds` times, in turn (A, B, A, B, ...), each load in a fresh context. */
export async function observeLoads(targets: readonly MeasuredTarget[], rounds: number): Promise<ObservedResult[]> {
  const browser = await chromium.launch({
    executablePath: resolveBrowser().executablePath,
    args: PLAYWRIGHT_CHROMIUM_FLAGS,
  });
  try {
    const runs = targets.map((): ObservedFigures[] => []);
    for (let round = 0; round < rounds; round++) {
      for (const [index, target] of targets.entries()) runs[index]?.push(await loadOnce(browser, target));
    }
    return targets.map((target, index) => {
      const own = runs[index] ?? [];
      const of = (pick: (figures: ObservedFigures) => number) => median(own.map(pick));
      return {
        ...target,
        runs: own,
        median: {
          fcpMs: of((run) => run.fcpMs),
          lcpMs: of((run) => run.lcpMs),
          tbtMs: of((run) => run.tbtMs),
          longestTaskMs: of((run) => run.longestTaskMs),
        },
      };
    });
  } finally {
    await browser.close();
  }
}

export interface ObservedComparison extends PerExport<ObservedResult> {
  page: string;
  /** Our median blocking time over the empty export's (1 when both are 0). */
  tbtRatio: number;
  /** The same, both reached from the page of another site. */
  arrivingTbtRatio: number;
}

/** Every page of the exports (their origins) and starts, loaded in turn `rounds` times. */
export async function compareObserved(
  served: ServedExports,
  pages: readonly string[],
  rounds: number,
): Promise<ObservedComparison[]> {
  const results = await observeLoads(exportTargets(served, pages), rounds);
  return resultsByPage(pages, results).map((byExport) => ({
    ...byExport,
    tbtRatio: ratioTo(byExport.ours.median.tbtMs, byExport.empty.median.tbtMs),
    arrivingTbtRatio: ratioTo(byExport.oursArriving.median.tbtMs, byExport.emptyArriving.median.tbtMs),
  }));
}

const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * Rows for `npm run bench`'s table, two per page: from about:blank, ours and the empty export (bare
 * and with our site-wide headers); from the page of another site, ours and the bare empty export;
 * each with the TBT ratio and the largest paint's distance.
 */
export function observedRows(comparisons: readonly ObservedComparison[]): [string, string, string][] {
  const { cpuSlowdown, rttMs, downloadKbps } = OBSERVED_CONDITIONS;
  const conditions =
    `Chromium run at ${cpuSlowdown}× CPU, ${rttMs} ms RTT, ${(downloadKbps / 1024).toFixed(1)} Mbit/s ` +
    '(observed, not simulated: a check on the Lighthouse figures, not a goal)';
  const figures = (results: readonly ObservedResult[]) =>
    results
      .map(({ median: { fcpMs, lcpMs, tbtMs, longestTaskMs } }) =>
        [`FCP ${ms(fcpMs)}`, `LCP ${ms(lcpMs)}`, `TBT ${ms(tbtMs)}`, `longest task ${ms(longestTaskMs)}`].join(', '),
      )
      .join(' / ');
  const lcpAbove = (ours: ObservedResult, reference: ObservedResult) =>
    `${signed(ours.median.lcpMs - reference.median.lcpMs, 0)} ms`;
  return comparisons.flatMap((comparison): [string, string, string][] => {
    const { page, ours, empty, emptySameHeaders, oursArriving, emptyArriving } = comparison;
    return [
      [
        `Throttled loads ${page}: ours / empty export / with our headers (median of ${ours.runs.length})`,
        figures([ours, empty, emptySameHeaders]),
        `TBT ×${comparison.tbtRatio.toFixed(2)}, LCP ${lcpAbove(ours, empty)} ` +
          `(with our headers: ${lcpAbove(ours, emptySameHeaders)}); ${conditions}`,
      ],
      [
        `  the same from a page of another site: ours / empty export`,
        figures([oursArriving, emptyArriving]),
        `TBT ×${comparison.arrivingTbtRatio.toFixed(2)}, LCP ${lcpAbove(oursArriving, emptyArriving)}`,
      ],
    ];
  });
}
