/**
 * Lighthouse scores and lab metrics through Lighthouse 13 (`npx lighthouse@13`, kept out of
 * package.json: it is large and only the benchmark needs it), run against several pages in turn so
 * that each figure has its reference measured next to it.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { browserExecutable, chromiumFlagsAfter } from '../../support/browser';
import { median } from '../../support/figures';
import type { MeasuredTarget } from '../../support/served-exports';

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** First contentful paint: where it equals the LCP, the LCP came with the first paint. */
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's own measure of the machine's speed (`environment.benchmarkIndex`). */
  benchmarkIndex: number;
  /** Main-thread time by kind (`mainthread-work-breakdown`: scriptEvaluation, styleLayout, ...), ms. */
  mainThread: Record<string, number>;
}

interface LighthouseReport {
  runtimeError?: { code: string; message: string };
  environment?: { benchmarkIndex?: number };
  configSettings?: { blankPage?: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: { group?: string; duration?: number }[] } }>;
}

/**
 * Runs a command without blocking the event loop: the sites and the emulator being measured are
 * served from this same process, and a synchronous spawn would leave them unable to answer.
 */
function runAsync(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString('utf8')).slice(-20_000);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function withoutNpmNoise(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/EBADENGINE|nodedir|npm warn/.test(line))
    .join('\n');
}

let cli: Promise<string> | null = null;

/**
 * The Lighthouse CLI, fetched by npx once and then run directly: `npx` asks the registry on every
 * call, which costs seconds per run, and minutes where only loopback is reachable (`--prefer-offline`
 * takes the cached copy when there is one).
 */
export function lighthouseCli(): Promise<string> {
  cli ??= runAsync(
    'npx',
    ['--yes', '--prefer-offline', '-p', 'lighthouse@13', '-c', 'command -v lighthouse'],
    process.env,
    600_000,
  ).then(({ code, stdout, stderr }) => {
    const found = stdout.trim().split('\n').pop() ?? '';
    if (code !== 0 || !found) throw new Error(`npx could not provide lighthouse@13: ${withoutNpmNoise(stderr)}`);
    return found;
  });
  return cli;
}

let chromeFlags: Promise<string> | null = null;

/**
 * The Chromium flags of every Lighthouse run: ours (support/browser.ts: quiet, and without the
 * address bar's popup, whose preloading used a core for about a second beside the page under
 * measurement) after the features Lighthouse's launcher turns off itself (`RenderDocument` among
 * them), read from the chrome-launcher that came with the Lighthouse npx installed, since Chromium
 * reads only the last `--disable-features` and ours come last.
 */
export function lighthouseChromeFlags(): Promise<string> {
  chromeFlags ??= lighthouseCli().then(async (cliPath) => {
    const launcherEntry = createRequire(realpathSync(cliPath)).resolve('chrome-launcher');
    const flagsFile = path.join(path.dirname(launcherEntry), 'flags.js');
    const { DEFAULT_FLAGS } = (await import(pathToFileURL(flagsFile).href)) as { DEFAULT_FLAGS?: unknown };
    const own = Array.isArray(DEFAULT_FLAGS)
      ? DEFAULT_FLAGS.find((flag): flag is string => typeof flag === 'string' && flag.startsWith('--disable-features='))
      : undefined;
    if (!own)
      throw new Error(`no --disable-features in ${flagsFile}: Lighthouse's launcher changed, see support/browser.ts`);
    return chromiumFlagsAfter(own.slice('--disable-features='.length).split(',')).join(' ');
  });
  return chromeFlags;
}

function figuresOf(report: LighthouseReport): LighthouseFigures {
  const score = (name: string) => report.categories[name]?.score ?? NaN;
  const metric = (name: string) => report.audits[name]?.numericValue ?? NaN;
  const mainThread: Record<string, number> = {};
  for (const { group, duration } of report.audits['mainthread-work-breakdown']?.details?.items ?? []) {
    if (group && duration !== undefined) mainThread[group] = Math.round((mainThread[group] ?? 0) + duration);
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: Math.round(metric('first-contentful-paint')),
    lcpMs: Math.round(metric('largest-contentful-paint')),
    tbtMs: Math.round(metric('total-blocking-time')),
    cls: metric('cumulative-layout-shift'),
    benchmarkIndex: Math.round(report.environment?.benchmarkIndex ?? NaN),
    mainThread,
  };
}

/**
 * The configuration of a run that starts from `startFrom` instead of `about:blank`: Lighthouse's
 * `blankPage` setting, the page it loads before it navigates to the audited one.
 */
function arrivalConfig(dir: string, startFrom: string): string {
  const file = path.join(dir, 'start-from.json');
  writeFileSync(file, JSON.stringify({ extends: 'lighthouse:default', settings: { blankPage: startFrom } }));
  return file;
}

/**
 * One Lighthouse run with its mobile defaults (Moto G Power, simulated slow 4G and 4x CPU), from
 * the target's `startFrom` page when it names one; the whole report is kept as `keepAs` when given.
 */
async function runOnce(target: LighthouseTarget, keepAs?: string): Promise<LighthouseFigures> {
  const { url, startFrom } = target;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-'));
  const output = path.join(dir, 'report.json');
  try {
    const args = [
      url,
      '--quiet',
      '--output=json',
      `--output-path=${output}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      `--chrome-flags=${await lighthouseChromeFlags()}`,
    ];
    if (startFrom) args.push(`--config-path=${arrivalConfig(dir, startFrom)}`);
    const env = { ...process.env, CHROME_PATH: browserExecutable() };
    const result = await runAsync(await lighthouseCli(), args, env, 180_000);
    if (result.code !== 0) {
      throw new Error(
        `lighthouse failed for ${url} (exit ${result.code}): ${withoutNpmNoise(result.stderr).slice(-2000)}`,
      );
    }
    const report = JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
    if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.code} ${report.runtimeError.message}`);
    const startedFrom = report.configSettings?.blankPage;
    if (startFrom && startedFrom !== startFrom)
      throw new Error(
        `lighthouse started from ${String(startedFrom)}, not ${startFrom}: its blankPage setting changed`,
      );
    if (keepAs) {
      mkdirSync(path.dirname(keepAs), { recursive: true });
      copyFileSync(output, keepAs);
    }
    return figuresOf(report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Lighthouse occasionally fails to record a trace (NO_NAVSTART) on a loaded machine; such a run
 * measures nothing, so it is repeated (at most twice) rather than failing the whole benchmark.
 */
async function runWithRetries(target: LighthouseTarget, keepAs?: string, attempts = 3): Promise<LighthouseFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(target, keepAs);
    } catch (error) {
      if (attempt >= attempts || !/NO_NAVSTART|NO_FCP|try again|run Lighthouse again/i.test(String(error))) throw error;
      console.warn(`Lighthouse run for ${target.url} failed to record, repeating: ${String(error).split('\n')[0]}`);
    }
  }
}

/** The median of every figure separately (main-thread kinds too). */
export function medianFigures(runs: readonly LighthouseFigures[]): LighthouseFigures {
  const pick = (key: Exclude<keyof LighthouseFigures, 'mainThread'>) => median(runs.map((run) => run[key]));
  const kinds = new Set(runs.flatMap((run) => Object.keys(run.mainThread)));
  const mainThread: Record<string, number> = {};
  for (const kind of kinds) mainThread[kind] = median(runs.map((run) => run.mainThread[kind] ?? 0));
  return {
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    bestPractices: pick('bestPractices'),
    seo: pick('seo'),
    fcpMs: pick('fcpMs'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
    cls: pick('cls'),
    benchmarkIndex: pick('benchmarkIndex'),
    mainThread,
  };
}

/**
 * A page to audit: its label names the report (`ours /`, `empty /404.html`), and its `startFrom` page,
 * when given, is Lighthouse's `blankPage` (about:blank otherwise, Lighthouse's default).
 */
export type LighthouseTarget = MeasuredTarget;

/** A file name for a target's report of one round: `ours-404.html-2.json`. */
function reportName(label: string, round: number): string {
  return `${label.replace(/[^A-Za-z0-9.]+/g, '-').replace(/-+$/, '')}-${round}.json`;
}

export interface InterleavedResult extends LighthouseTarget {
  runs: LighthouseFigures[];
  median: LighthouseFigures;
}

/**
 * Runs Lighthouse mobile `rounds` times over all targets in turn (A, B, C, A, B, C, ...): on a
 * machine shared with other work, load that comes and goes then falls on every target alike, and
 * figures of neighbouring runs can be compared where figures of separate runs cannot.
 */
export async function lighthouseInterleaved(
  targets: readonly LighthouseTarget[],
  rounds: number,
  options: { reportDir?: string; onRun?: (label: string, round: number, figures: LighthouseFigures) => void } = {},
): Promise<InterleavedResult[]> {
  const { reportDir, onRun = () => {} } = options;
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
  const runs = targets.map((): LighthouseFigures[] => []);
  for (let round = 1; round <= rounds; round++) {
    for (const [index, target] of targets.entries()) {
      const keepAs = reportDir ? path.join(reportDir, reportName(target.label, round)) : undefined;
      const figures = await runWithRetries(target, keepAs);
      runs[index]?.push(figures);
      onRun(target.label, round, figures);
    }
  }
  return targets.map((target, index) => {
    const own = runs[index] ?? [];
    return { ...target, runs: own, median: medianFigures(own) };
  });
}
