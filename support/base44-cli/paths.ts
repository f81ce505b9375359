/**
 * Where things are, for the TypeScript helpers of support/base44-cli. They do not import vendor.mjs:
 * Playwright's test loader turns an imported .mjs file into CommonJS and breaks it. The launcher
 * (run.mjs) checks and unpacks the pinned CLI itself on every start.
 */
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The `base44` launcher: `node run.mjs <command>` is `npx base44 <command>`. */
export const BASE44_LAUNCHER = path.join(REPO_ROOT, 'support', 'base44-cli', 'run.mjs');
