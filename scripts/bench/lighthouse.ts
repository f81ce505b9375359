/**
 * Lighthouse scores and lab metrics, the median of several runs, through `npx lighthouse@13`
 * (kept out of package.json: it is large and only the benchmark needs it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_FLAGS, browserExecutable } from '../../tests/support/browser';

export type FormFactor = 'mobile' | 'desktop';

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

interface LighthouseReport {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number }>;
}

function runOnce(url: string, formFactor: FormFactor): LighthouseFigures {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-'));
  const output = path.join(dir, 'report.json');
  try {
    const args = [
      '--yes', 'lighthouse@13', url, '--quiet', '--output=json', `--output-path=${output}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      `--chrome-flags=${CHROMIUM_FLAGS.join(' ')}`,
      ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
    ];
    const result = spawnSync('npx', args, { encoding: 'utf8', env: { ...process.env, CHROME_PATH: browserExecutable() }, timeout: 180_000 });
    if (result.status !== 0) throw new Error(`lighthouse failed for ${url}: ${result.stderr.slice(-2000)}`);
    const report = JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
    if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.code} ${report.runtimeError.message}`);
    const score = (name: string) => report.categories[name]?.score ?? NaN;
    const metric = (name: string) => report.audits[name]?.numericValue ?? NaN;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(metric('largest-contentful-paint')),
      tbtMs: Math.round(metric('total-blocking-time')),
      cls: metric('cumulative-layout-shift'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Runs Lighthouse `runs` times (odd) and takes the median of every figure separately. */
export function lighthouseMedian(url: string, formFactor: FormFactor, runs = 3): LighthouseFigures {
  const results: LighthouseFigures[] = [];
  for (let run = 0; run < runs; run++) results.push(runOnce(url, formFactor));
  const pick = (key: keyof LighthouseFigures) => median(results.map((result) => result[key]));
  return {
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    bestPractices: pick('bestPractices'),
    seo: pick('seo'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
    cls: pick('cls'),
  };
}
