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
  run,
  runConcurrently,
  secondsSince,
  startJob,
  summarize,
  type Job,
  type StepResult,
} from './steps';

/** The host matrix's servers from npm (wrangler on Node 22, superstatic, serve): fetched once, then cached. */
const HOST_RUNTIME: Job = {
  name: 'host runtimes',
  title: 'host runtimes (wrangler on Node 22, superstatic, serve; cached in node_modules/.cache/hosts)',
  command: process.execPath,
  args: [path.join(ROOT, 'support', 'hosts', 'runtime', 'install.mjs')],
};

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
    { name: 'lint', title: 'lint (ESLint)', command: bin('eslint'), args: ['--max-warnings=0', '.'] },
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
      args: ['--check', '--log-level=warn', '.'],
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

function jestStep(): StepResult {
  const start = Date.now();
  const report = path.join(RESULTS, 'jest.json');
  const ok = run('unit and integration tests (Jest)', bin('jest'), [
    '--ci',
    '--coverage',
    '--json',
    `--outputFile=${report}`,
  ]);
  return { name: 'jest', ok, counts: jestCounts(report), seconds: secondsSince(start) };
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

function crossEngineStep(): StepResult {
  const start = Date.now();
  const ok = runEngineSuite([...ENGINES]);
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
function hostMatrixStep(browserReady: boolean, runtime: StepResult): StepResult {
  const serversReady = ensureServers();
  if (!runtime.ok)
    console.error('\n✗ the host runtimes (wrangler on Node 22, superstatic, serve) could not be installed (above)');
  rmSync(path.join(RESULTS, 'hosts.json'), { force: true });
  const step = playwrightStep(
    browserReady,
    'host matrix',
    'host matrix',
    'tests/playwright/hosts.config.ts',
    'hosts.json',
  );
  return { ...step, ok: step.ok && serversReady && runtime.ok };
}

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  const runtime = startJob(HOST_RUNTIME);
  const browserReady = await ensureBrowser();
  const steps: StepResult[] = [{ name: 'browser', ok: browserReady }];
  steps.push(...(await staticChecks()));
  steps.push(jestStep());
  const build = await buildStep();
  steps.push(build);

  if (build.ok && browserReady) {
    const start = Date.now();
    const ok = run('browser tests (Playwright)', bin('playwright'), ['test', '-c', 'tests/playwright/e2e.config.ts']);
    steps.push({
      name: 'e2e',
      ok,
      counts: playwrightCounts(path.join(RESULTS, 'e2e.json')),
      seconds: secondsSince(start),
    });
  } else {
    steps.push({ name: 'e2e', ok: false });
    console.error('\n✗ browser tests skipped: they need a successful build and a browser');
  }
  // The same site in Chromium, Firefox ESR and WebKitGTK, after the Chromium suite (same fixed ports).
  if (build.ok) steps.push(crossEngineStep());
  else {
    steps.push({ name: 'cross-engine', ok: false });
    console.error('\n✗ cross-engine browser tests skipped: they need a successful build');
  }
  // Every host the site is tested on (support/hosts/matrix.ts), on the same fixed ports again.
  const runtimeStep = reportJob(HOST_RUNTIME, await runtime);
  steps.push(runtimeStep);
  if (build.ok) steps.push(hostMatrixStep(browserReady, runtimeStep));
  else {
    steps.push({ name: 'host matrix', ok: false });
    console.error('\n✗ host matrix skipped: it needs a successful build');
  }

  // The development loop (`npm run dev`: next dev + the local platform) needs no build, only a browser.
  steps.push(
    playwrightStep(browserReady, 'dev server', 'development server', 'tests/playwright/dev.config.ts', 'e2e-dev.json'),
  );
  // `npx base44 dev` (the vendor CLI, offline) serving this site from a copy of the repository.
  steps.push(
    playwrightStep(
      browserReady,
      'base44 dev',
      'base44 dev serving the site',
      'tests/playwright/base44.config.ts',
      'e2e-base44.json',
    ),
  );
  process.exit(summarize(steps) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
