/**
 * Lighthouse scores and lab metrics, the median of several runs, through `npx lighthouse@13`
 * (kept out of package.json: it is large and only the benchmark needs it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { browserExecutable, CHROMIUM_FLAGS } from '../../support/browser';
import { median } from './median';

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

/**
 * Runs a command without blocking the event loop: the site and the emulator being measured are
 * served from this same process, and a synchronous spawn would leave them unable to answer.
 */
function runAsync(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
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
      resolve({ code, stderr });
    });
  });
}

async function runOnce(url: string, formFactor: FormFactor): Promise<LighthouseFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-'));
  const output = path.join(dir, 'report.json');
  try {
    const args = [
      '--yes',
      'lighthouse@13',
      url,
      '--quiet',
      '--output=json',
      `--output-path=${output}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      `--chrome-flags=${CHROMIUM_FLAGS.join(' ')}`,
      ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
    ];
    const result = await runAsync('npx', args, { ...process.env, CHROME_PATH: browserExecutable() }, 180_000);
    if (result.code !== 0) {
      const detail = result.stderr
        .split('\n')
        .filter((line) => !/EBADENGINE|nodedir/.test(line))
        .join('\n');
      throw new Error(`lighthouse failed for ${url} (exit ${result.code}): ${detail.slice(-2000)}`);
    }
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

/**
 * Lighthouse occasionally fails to record a trace (NO_NAVSTART) on a loaded machine; such a run
 * measures nothing, so it is repeated (at most twice) rather than failing the whole benchmark.
 */
async function runWithRetries(url: string, formFactor: FormFactor, attempts = 3): Promise<LighthouseFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url, formFactor);
    } catch (error) {
      if (attempt >= attempts || !/NO_NAVSTART|NO_FCP|try again|run Lighthouse again/i.test(String(error))) throw error;
      console.warn(
        `Lighthouse run for ${url} (${formFactor}) failed to record, repeating: ${String(error).split('\n')[0]}`,
      );
    }
  }
}

/** Runs Lighthouse `runs` times (odd) and takes the median of every figure separately. */
export async function lighthouseMedian(url: string, formFactor: FormFactor, runs = 3): Promise<LighthouseFigures> {
  const results: LighthouseFigures[] = [];
  for (let run = 0; run < runs; run++) results.push(await runWithRetries(url, formFactor));
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
