/**
 * What the Playwright configs of this folder share. Playwright resolves a config's relative paths
 * (testDir, outputDir, a reporter's outputFile, globalSetup) and starts its web servers from the
 * config's own folder; the suites and their servers live at the repository root, so every path here
 * is absolute from there.
 */
import path from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';

export const ROOT = path.resolve(__dirname, '../..');

/**
 * A suite's layout: its tests in tests/<folder>, its artefacts in test-results/<folder>, and its
 * JSON report in test-results/<folder>.json (which `npm test` reads for its counts).
 */
export function suiteLayout(folder: string): Pick<PlaywrightTestConfig, 'testDir' | 'outputDir' | 'reporter'> {
  return {
    testDir: path.join(ROOT, 'tests', folder),
    outputDir: path.join(ROOT, 'test-results', folder),
    reporter: [['list'], ['json', { outputFile: path.join(ROOT, 'test-results', `${folder}.json`) }]],
  };
}

/**
 * What a failing browser test leaves in test-results/: a screenshot of the page as it failed, beside
 * Playwright's error context (the page's accessibility tree at the failure). No trace: recording one
 * for every test (DOM snapshots at each action) cost 17% of the e2e suite's CPU (318 s against
 * 264 s, all processes, 2026-11-28), and a trace is one flag away where a failure needs it
 * (`--trace retain-on-failure`, docs/TESTING.md).
 */
export const FAILURE_ARTEFACTS = { trace: 'off', screenshot: 'only-on-failure' } as const;

type WebServers = NonNullable<PlaywrightTestConfig['webServer']>;

/** Web servers run from the repository root (their commands name paths from there). */
export function fromRoot(servers: WebServers): WebServers {
  return [servers].flat().map((server) => ({ cwd: ROOT, ...server }));
}
