/**
 * `npm run test:engines`: the cross-engine browser suite (tests/cross-engine) in stock Chromium,
 * Firefox ESR and WebKitGTK. `-- --engine firefox` (repeatable) runs one engine; any other
 * argument goes to Playwright Test (`-- --engine webkit tests/cross-engine/frame.spec.ts`).
 * Installs missing engines on Debian as root (tools/test/ensure-browser.ts) and fails, naming what
 * to install, when an engine asked for cannot run.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';

import { parseEngineArgs, type Engine } from '../../support/engines';
import { ensureEngines } from './ensure-browser';
import { runInherited } from './steps';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Runs the suite in `engines`; true when every engine could run and every test passed. Asynchronous,
 * so that `npm test`'s other lane keeps running beside it.
 */
export async function runEngineSuite(engines: Engine[], extraArgs: string[] = []): Promise<boolean> {
  // A report left by an earlier run must not be counted as this run's.
  rmSync(path.join(ROOT, 'test-results', 'cross-engine.json'), { force: true });
  const ready = ensureEngines(engines);
  if (ready.length === 0) return false;
  const projects = ready.map((engine) => `--project=${engine}`);
  const passed = await runInherited(path.join(ROOT, 'node_modules', '.bin', 'playwright'), [
    'test',
    '-c',
    'tests/playwright/engines.config.ts',
    ...projects,
    ...extraArgs,
  ]);
  return passed && ready.length === engines.length;
}

if (require.main === module) {
  const fail = (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  };
  try {
    const { engines, rest } = parseEngineArgs(process.argv.slice(2));
    runEngineSuite(engines, rest).then((ok) => process.exit(ok ? 0 : 1), fail);
  } catch (error) {
    fail(error);
  }
}
