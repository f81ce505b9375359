/**
 * `npm test`: lint, typecheck, unit and integration tests, the static build, then the browser tests
 * (Chromium through Playwright, then the cross-engine suite in Chromium, Firefox ESR and WebKitGTK),
 * and one plain summary line at the end. Every step runs even when an earlier one failed (except the
 * browser tests, which need the build), so one run shows everything that is wrong.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ensureBuild } from '../../build-steps/site/build-site';
import { generateEntityTypes } from '../../support/base44-cli/generate-types';
import { PREVIEW_BUILD } from '../../support/editor-preview';
import { ENGINES } from '../../support/engines';
import { runEngineSuite } from './engines';
import { ensureBrowser } from './ensure-browser';

const ROOT = path.resolve(__dirname, '../..');
const RESULTS = path.join(ROOT, 'test-results');

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
interface StepResult {
  name: string;
  ok: boolean;
  counts?: Counts;
}

function bin(name: string): string {
  return path.join(ROOT, 'node_modules', '.bin', name);
}

function run(name: string, command: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function readJson(file: string): unknown {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

function jestCounts(file: string): Counts | undefined {
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

function playwrightCounts(file: string): Counts | undefined {
  const report = readJson(file) as {
    stats?: { expected: number; unexpected: number; flaky: number; skipped: number };
  } | null;
  if (!report?.stats) return undefined;
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected + flaky, failed: unexpected, skipped };
}

/** A Playwright suite of its own config, counted from its JSON report; not run without a browser. */
function playwrightStep(
  browserReady: boolean,
  name: string,
  title: string,
  config: string,
  report: string,
): StepResult {
  if (!browserReady) return { name, ok: false };
  const ok = run(`${title} (Playwright)`, bin('playwright'), ['test', '-c', config]);
  return { name, ok, counts: playwrightCounts(path.join(RESULTS, report)) };
}

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  const steps: StepResult[] = [];
  const browserReady = await ensureBrowser();
  steps.push({ name: 'browser', ok: browserReady });

  steps.push({
    name: 'lint',
    ok:
      run('lint (ESLint)', bin('eslint'), ['--max-warnings=0', '.']) &&
      run('lint (imports: cycles, lazy chunks)', bin('depcruise'), ['--config', '.dependency-cruiser.cjs', '.']),
  });
  steps.push({
    name: 'format',
    ok: run('format check (Prettier)', bin('prettier'), ['--check', '--log-level=warn', '.']),
  });
  // The vendor CLI's entity types first, so that every run type-checks the project as a developer
  // who ran `npx base44 types generate` sees it; then our client typed by them (tests/types/base44).
  console.log('\n▶ entity types (base44 types generate)');
  let generated = false;
  try {
    console.log(`Generated ${path.relative(ROOT, generateEntityTypes(ROOT))}`);
    generated = true;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
  }
  steps.push({ name: 'typecheck', ok: run('typecheck', bin('tsc'), ['--noEmit']) });
  const typesOk = generated && run('generated types type our client', bin('tsc'), ['-p', 'tests/types/base44']);
  steps.push({ name: 'generated types', ok: typesOk });

  const jestReport = path.join(RESULTS, 'jest.json');
  const jestOk = run('unit and integration tests (Jest)', bin('jest'), [
    '--ci',
    '--coverage',
    '--json',
    `--outputFile=${jestReport}`,
  ]);
  steps.push({ name: 'jest', ok: jestOk, counts: jestCounts(jestReport) });

  let buildOk = false;
  console.log('\n▶ static builds (production and editor preview)');
  try {
    // Both builds before Playwright starts: two builds at once from two web servers crawl on 2 cores.
    await ensureBuild({ outDir: 'out' });
    await ensureBuild(PREVIEW_BUILD);
    buildOk = true;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
  }
  steps.push({ name: 'build', ok: buildOk });

  if (buildOk && browserReady) {
    const e2eOk = run('browser tests (Playwright)', bin('playwright'), ['test']);
    steps.push({ name: 'e2e', ok: e2eOk, counts: playwrightCounts(path.join(RESULTS, 'e2e.json')) });
  } else {
    steps.push({ name: 'e2e', ok: false });
    console.error('\n✗ browser tests skipped: they need a successful build and a browser');
  }

  // The same site in Chromium, Firefox ESR and WebKitGTK, after the Chromium suite (same fixed ports).
  if (buildOk) {
    const enginesOk = runEngineSuite([...ENGINES]);
    steps.push({
      name: 'cross-engine',
      ok: enginesOk,
      counts: playwrightCounts(path.join(RESULTS, 'cross-engine.json')),
    });
  } else {
    steps.push({ name: 'cross-engine', ok: false });
    console.error('\n✗ cross-engine browser tests skipped: they need a successful build');
  }

  // The development loop (`npm run dev`: next dev + the local platform) needs no build, only a browser.
  steps.push(
    playwrightStep(browserReady, 'dev server', 'development server', 'playwright.dev.config.ts', 'e2e-dev.json'),
  );
  // `npx base44 dev` (the vendor CLI, offline) serving this site from a copy of the repository.
  steps.push(
    playwrightStep(
      browserReady,
      'base44 dev',
      'base44 dev serving the site',
      'playwright.base44.config.ts',
      'e2e-base44.json',
    ),
  );

  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  console.log('\nSummary');
  for (const step of steps) {
    const counts = step.counts
      ? ` (${step.counts.passed} passed, ${step.counts.failed} failed, ${step.counts.skipped} skipped)`
      : '';
    console.log(`  ${step.ok ? '✓' : '✗'} ${step.name}${counts}`);
    if (step.counts) {
      total.passed += step.counts.passed;
      total.failed += step.counts.failed;
      total.skipped += step.counts.skipped;
    }
    // A failed step without test counts (lint, build...) still counts as one failure.
    if (!step.ok && !step.counts?.failed) total.failed += 1;
  }
  console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(steps.every((step) => step.ok) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
