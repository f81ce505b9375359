/**
 * A throwaway copy of this repository for running the vendor CLI against, so that `base44 dev`
 * (which starts our `serveCommand`, `npm run dev`, and writes .next/ and public/vendor/) and a
 * linked base44/.app.jsonc never touch the working tree. Sources are copied; node_modules is ours,
 * hard-linked file by file (nothing is installed, and it takes seconds): Turbopack refuses a
 * node_modules symlink that points outside the project. remove() deletes it all.
 */
import {
  copyFileSync,
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from './paths';

/** Top-level entries that are build output, caches or per-developer state, never sources. */
const SKIPPED = new Set([
  'node_modules',
  '.git',
  '.next',
  'out',
  'test-results',
  'playwright-report',
  'coverage',
  '.bench',
  '.emulator-data',
  '.swc',
  'tsconfig.tsbuildinfo',
]);
/** Per-developer files inside base44/: the copy gets its own link and generated types. */
const SKIPPED_IN_BASE44 = new Set(['.app.jsonc', '.types']);

/** node_modules entries that are caches, not packages. */
const SKIPPED_MODULES = new Set(['.cache']);

/** Recreates `from` at `to`: directories made, files hard-linked (copied across devices), symlinks kept. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

function linkNodeModules(dir: string): void {
  const from = path.join(REPO_ROOT, 'node_modules');
  const to = path.join(dir, 'node_modules');
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (SKIPPED_MODULES.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) linkTree(source, path.join(to, entry.name));
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), path.join(to, entry.name));
    else linkSync(source, path.join(to, entry.name));
  }
}

export interface ProjectCopy {
  dir: string;
  remove(): void;
}

function isSource(source: string): boolean {
  const relative = path.relative(REPO_ROOT, source);
  if (relative === '') return true;
  const [top, second] = relative.split(path.sep);
  if (top === undefined || SKIPPED.has(top) || top.startsWith('out-')) return false;
  return !(top === 'base44' && second !== undefined && SKIPPED_IN_BASE44.has(second));
}

/** Copies the repository and links the copy's base44/ folder to `appId`. */
export function copyProject(appId: string): ProjectCopy {
  const dir = mkdtempSync(path.join(tmpdir(), 'base44-project-'));
  try {
    cpSync(REPO_ROOT, dir, { recursive: true, filter: isSource });
    linkNodeModules(dir);
    writeFileSync(path.join(dir, 'base44', '.app.jsonc'), `${JSON.stringify({ id: appId }, null, 2)}\n`);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
