/**
 * `npm test`: lint, format and type checks (at once), unit and integration tests, the static builds,
 * then the browser tests (Chromium through Playwright, the cross-engine suite in Chromium, Firefox
 * ESR and WebKitGTK, the host matrix on real hosts, the development servers), and one plain summary
 * line at the end, with each step's time. Every step runs even when an earlier one failed (except the
 * browser tests, which need the build), so one run shows everything that is wrong.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { ensureBuild } from '../../build-steps/site/build-site';
import { generateEntityTypes } from '../../support/base44-cli/generate-types';
import { PREVIEW_BUILD } from '../../support/editor-preview';
import { ENGINES } from '../../support/engines';
import { runEngineSuite } from './engines';
import { ensureBrowser, ensureServers } from './ensure-browser';
import {
  bin,
  jestCounts,
  playwrightCounts,
  playwrightStep,
  reportJob,
  RESULTS,
  ROOT,
  runConcurrently,
  secondsSince,
  startJob,
  summarize,
  type Job,
  type JobResult,
  type StepResult,
} from './steps';

/** The host matrix's servers from npm (wrangler on Node 22, superstatic, serve): fetched once, then cached. */
const HOST_RUNTIME: Job = {
  name: 'host runtimes',
  title: 'host runtimes (wrangler on Node 22, superstatic, serve; cached in node_modules/.cache/hosts)',
  command: process.execPath,
  args: [path.join(ROOT, 'support', 'hosts', 'runtime', 'install.mjs')],
};

/**
 * ESLint's and Prettier's caches, keyed by each file's content (a fresh clone's timestamps say
 * nothing) and by the tool's version and configuration: a second run checks only what changed.
 * No lint rule here reads types, so a file's verdict depends on that file alone.
 */
const ESLINT_CACHE = ['--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/'];
const PRETTIER_CACHE = [
  '--cache',
  '--cache-strategy',
  'content',
  '--cache-location',
  'node_modules/.cache/prettier/.prettier-cache',
];

/** Lint (ESLint, import rules), format and both type checks: independent, so they share the two cores. */
async function staticChecks(): Promise<StepResult[]> {
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
  const jobs: Job[] = [
    { name: 'lint', title: 'lint (ESLint)', command: bin('eslint'), args: ['--max-warnings=0', ...ESLINT_CACHE, '.'] },
    {
      name: 'lint imports',
      title: 'lint (imports: cycles, lazy chunks)',
      command: bin('depcruise'),
      args: ['--config', '.dependency-cruiser.cjs', '.'],
    },
    {
      name: 'format',
      title: 'format check (Prettier)',
      command: bin('prettier'),
      args: ['--check', '--log-level=warn', ...PRETTIER_CACHE, '.'],
    },
    { name: 'typecheck', title: 'typecheck', command: bin('tsc'), args: ['--noEmit'] },
    ...(generated
      ? [
          {
            name: 'generated types',
            title: 'generated types type our client',
            command: bin('tsc'),
            args: ['-p', 'tests/types/base44'],
          },
        ]
      : []),
  ];
  const results = await runConcurrently(jobs);
  return generated ? results : [...results, { name: 'generated types', ok: false }];
}

/**
 * Jest with one worker, its output printed whole when it ends. It runs beside the browser lane,
 * whose suites use about one core of the two (they mostly wait on pages and the network: the
 * Chromium suite used 172 s of CPU in its 215 s), so one worker keeps both cores busy.
 */
async function jestStep(): Promise<StepResult> {
  const report = path.join(RESULTS, 'jest.json');
  const job: Job = {
    name: 'jest',
    title: 'unit and integration tests (Jest)',
    command: bin('jest'),
    args: ['--ci', '--coverage', '--maxWorkers=1', '--json', `--outputFile=${report}`],
  };
  rmSync(report, { force: true });
  const result = reportJob(job, await startJob(job));
  return { ...result, counts: jestCounts(report) };
}

async function buildStep(): Promise<StepResult> {
  const start = Date.now();
  console.log('\n▶ static builds (production and editor preview)');
  try {
    // Both builds before Playwright starts: two builds at once from two web servers crawl on 2 cores.
    await ensureBuild({ outDir: 'out' });
    await ensureBuild(PREVIEW_BUILD);
    return { name: 'build', ok: true, seconds: secondsSince(start) };
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return { name: 'build', ok: false, seconds: secondsSince(start) };
  }
}

async function crossEngineStep(): Promise<StepResult> {
  const start = Date.now();
  const ok = await runEngineSuite([...ENGINES]);
  return {
    name: 'cross-engine',
    ok,
    counts: playwrightCounts(path.join(RESULTS, 'cross-engine.json')),
    seconds: secondsSince(start),
  };
}

/**
 * The host matrix: nginx, Apache and Caddy must be there and the npm runtimes installed; when one is
 * not, the step fails and says why (the suite's own setup refuses to start without them too).
 */
async function hostMatrixStep(browserReady: boolean, runtime: StepResult): Promise<StepResult> {
  const serversReady = ensureServers();
  if (!runtime.ok)
    console.error('\n✗ the host runtimes (wrangler on Node 22, superstatic, serve) could not be installed (above)');
  rmSync(path.join(RESULTS, 'hosts.json'), { force: true });
  const step = await playwrightStep(browserReady, {
    name: 'host matrix',
    title: 'host matrix',
    config: 'tests/playwright/hosts.config.ts',
    report: 'hosts.json',
  });
  return { ...step, ok: step.ok && serversReady && runtime.ok };
}

/**
 * The browser lane, its output as it comes: the builds, then every suite against the built site on
 * the fixed ports (3000, 3001, 3100 and the matrix's hosts), one after another, then the
 * development servers (`npm run dev` on 3200 and 3201, `base44 dev` on free ports).
 */
async function browserLane(browserReady: boolean, runtime: Promise<JobResult>) {
  const build = await buildStep();
  const steps: StepResult[] = [build];
  if (build.ok && browserReady) {
    steps.push(
      await playwrightStep(browserReady, {
        name: 'e2e',
        title: 'browser tests',
        config: 'tests/playwright/e2e.config.ts',
        report: 'e2e.json',
      }),
    );
  } else {
    steps.push({ name: 'e2e', ok: false });
    console.error('\n✗ browser tests skipped: they need a successful build and a browser');
  }
  // The same site in Chromium, Firefox ESR and WebKitGTK, after the Chromium suite (same fixed ports).
  if (build.ok) steps.push(await crossEngineStep());
  else {
    steps.push({ name: 'cross-engine', ok: false });
    console.error('\n✗ cross-engine browser tests skipped: they need a successful build');
  }
  // Every host the site is tested on (support/hosts/matrix.ts), on the same fixed ports again.
  const runtimeStep = reportJob(HOST_RUNTIME, await runtime);
  steps.push(runtimeStep);
  if (build.ok) steps.push(await hostMatrixStep(browserReady, runtimeStep));
  else {
    steps.push({ name: 'host matrix', ok: false });
    console.error('\n✗ host matrix skipped: it needs a successful build');
  }
  // The development loop (`npm run dev`: next dev + the local platform) needs no build, only a browser.
  steps.push(
    await playwrightStep(browserReady, {
      name: 'dev server',
      title: 'development server',
      config: 'tests/playwright/dev.config.ts',
      report: 'e2e-dev.json',
    }),
  );
  // `npx base44 dev` (the vendor CLI, offline) serving this site from a copy of the repository.
  steps.push(
    await playwrightStep(browserReady, {
      name: 'base44 dev',
      title: 'base44 dev serving the site',
      config: 'tests/playwright/base44.config.ts',
      report: 'e2e-base44.json',
    }),
  );
  return steps;
}

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  const runtime = startJob(HOST_RUNTIME);
  const browserReady = await ensureBrowser();
  // The checks first and alone: the type check reads `.next/types`, which the build writes.
  const checks = await staticChecks();
  const [jest, browserSteps] = await Promise.all([jestStep(), browserLane(browserReady, runtime)]);
  const steps = [{ name: 'browser', ok: browserReady }, ...checks, jest, ...browserSteps];
  process.exit(summarize(steps) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
