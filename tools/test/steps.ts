/**
 * The steps of `npm test` (run-all.ts): running a command as a step, several independent ones at
 * once, reading test counts from the runners' JSON reports, and the closing summary with each step's
 * time, so a slow step shows in every run.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
export const RESULTS = path.join(ROOT, 'test-results');

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface StepResult {
  name: string;
  ok: boolean;
  counts?: Counts;
  /** Wall-clock seconds the step took. */
  seconds?: number;
}

export function bin(name: string): string {
  return path.join(ROOT, 'node_modules', '.bin', name);
}

export function secondsSince(start: number): number {
  return Math.round((Date.now() - start) / 1000);
}

/** Runs a command with this process's terminal, without blocking the event loop; true when it exits 0. */
export function runInherited(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(error.message);
      resolve(false);
    });
    child.on('close', (code) => resolve(code === 0));
  });
}

/**
 * Runs a command in the foreground under a title, its output as it comes. Asynchronous, so that the
 * jobs of the other lane, whose output is piped to this process, keep flowing meanwhile.
 */
export function run(title: string, command: string, args: string[]): Promise<boolean> {
  console.log(`\n▶ ${title}`);
  return runInherited(command, args);
}

export interface Job {
  name: string;
  title: string;
  command: string;
  args: string[];
}

export interface JobResult {
  ok: boolean;
  output: string;
  seconds: number;
}

/** Starts a command in the background, its output kept for `reportJob`. */
export function startJob(job: Job): Promise<JobResult> {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(job.command, job.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => resolve({ ok: code === 0, output, seconds: secondsSince(start) }));
  });
}

/** Prints a finished background job under its title, as a step of its own. */
export function reportJob(job: Job, result: JobResult): StepResult {
  console.log(`\n▶ ${job.title}`);
  if (result.output.trim()) process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
  return { name: job.name, ok: result.ok, seconds: result.seconds };
}

/**
 * Runs independent commands at once (two cores stay busy where one command alone would leave one
 * idle) and prints each one's output whole, in the order given, once it is done.
 */
export async function runConcurrently(jobs: Job[]): Promise<StepResult[]> {
  const running = jobs.map((job) => startJob(job));
  const results: StepResult[] = [];
  for (const [index, job] of jobs.entries()) results.push(reportJob(job, await (running[index] as Promise<JobResult>)));
  return results;
}

function readJson(file: string): unknown {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

export function jestCounts(file: string): Counts | undefined {
  const report = readJson(file) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  } | null;
  if (!report) return undefined;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

export function playwrightCounts(file: string): Counts | undefined {
  const report = readJson(file) as {
    stats?: { expected: number; unexpected: number; flaky: number; skipped: number };
  } | null;
  if (!report?.stats) return undefined;
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected + flaky, failed: unexpected, skipped };
}

/** A Playwright suite of its own config, counted from its JSON report; not run without a browser. */
export async function playwrightStep(
  browserReady: boolean,
  suite: { name: string; title: string; config: string; report: string },
): Promise<StepResult> {
  if (!browserReady) return { name: suite.name, ok: false };
  const start = Date.now();
  const ok = await run(`${suite.title} (Playwright)`, bin('playwright'), ['test', '-c', suite.config]);
  return {
    name: suite.name,
    ok,
    counts: playwrightCounts(path.join(RESULTS, suite.report)),
    seconds: secondsSince(start),
  };
}

/** Prints the summary and the closing line; true when every step passed. */
export function summarize(steps: StepResult[]): boolean {
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  console.log('\nSummary');
  for (const step of steps) {
    const counts = step.counts
      ? ` (${step.counts.passed} passed, ${step.counts.failed} failed, ${step.counts.skipped} skipped)`
      : '';
    const time = step.seconds === undefined ? '' : ` [${step.seconds} s]`;
    console.log(`  ${step.ok ? '✓' : '✗'} ${step.name}${counts}${time}`);
    if (step.counts) {
      total.passed += step.counts.passed;
      total.failed += step.counts.failed;
      total.skipped += step.counts.skipped;
    }
    // A failed step without test counts (lint, build...) still counts as one failure.
    if (!step.ok && !step.counts?.failed) total.failed += 1;
  }
  console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return steps.every((step) => step.ok);
}
