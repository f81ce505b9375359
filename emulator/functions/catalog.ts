import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import JSON5 from 'json5';

import { DomainError } from '../core/errors';

/**
 * The backend functions of a functions folder (a project's `base44/functions`, or a seeded app's),
 * found as the platform's CLI finds them (docs.base44.com, Backend functions: "Create functions"):
 * every folder under the root with an `entry.ts` or `entry.js` is a function named by its path from
 * the root (`functions/email/send/entry.ts` is `email/send`); a `function.jsonc` (or `.json`) in the
 * folder may name it and point at another entry file. Paths with a dot in a segment are ignored. A
 * bad config or two functions of one name is a `function_config_invalid` failure naming the file.
 */

export interface FunctionEntry {
  name: string;
  /** Absolute path of the entry file. */
  entryPath: string;
  /** Absolute folder of the function (its files are what a change to the function means). */
  dir: string;
  /** The functions folder it was found in (its sibling `shared/` is readable by the function). */
  root: string;
}

const ENTRY_FILES = ['entry.ts', 'entry.js'];
const CONFIG_FILES = ['function.jsonc', 'function.json'];
const SKIPPED_DIRS = new Set(['node_modules']);
/** A platform function name: path segments without dots, as the CLI's schema allows. */
const NAME = /^[^./\\][^.\\]*$/;

function configError(message: string): DomainError {
  return new DomainError('project_failed', 'function_config_invalid', message);
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isFile() ?? false;
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

async function readConfig(root: string, dir: string, configPath: string, defaultName: string): Promise<FunctionEntry> {
  let parsed: unknown;
  try {
    parsed = JSON5.parse(await readFile(configPath, 'utf8'));
  } catch (error) {
    throw configError(`${configPath}: not valid JSONC (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw configError(`${configPath}: must be an object with "entry"`);
  }
  const config = parsed as Record<string, unknown>;
  const entry = Object.hasOwn(config, 'entry') ? config.entry : undefined;
  if (typeof entry !== 'string' || entry.trim() === '') {
    throw configError(`${configPath}: "entry" must name the function's code file`);
  }
  const entryPath = path.resolve(dir, entry);
  if (!isInside(dir, entryPath) || !(await isFile(entryPath))) {
    throw configError(`${configPath}: entry file ${entry} not found in ${dir}`);
  }
  const rawName = Object.hasOwn(config, 'name') ? config.name : undefined;
  if (rawName !== undefined && (typeof rawName !== 'string' || !NAME.test(rawName.trim()))) {
    throw configError(`${configPath}: "name" must be a non-empty name without dots`);
  }
  return { name: rawName === undefined ? defaultName : rawName.trim(), entryPath, dir, root };
}

async function functionIn(root: string, dir: string): Promise<FunctionEntry | null> {
  const name = path.relative(root, dir).split(path.sep).join('/');
  for (const config of CONFIG_FILES) {
    const configPath = path.join(dir, config);
    if (await isFile(configPath)) {
      if (name === '') throw configError(`${configPath}: a function lives in a named subfolder`);
      return readConfig(root, dir, configPath, name);
    }
  }
  for (const entry of ENTRY_FILES) {
    const entryPath = path.join(dir, entry);
    if (await isFile(entryPath)) {
      if (name === '') throw configError(`${entryPath}: a function lives in a named subfolder`);
      return { name, entryPath, dir, root };
    }
  }
  return null;
}

/** Reads the functions under `root` (a missing folder has none). Bad configs and duplicate names throw. */
export async function readFunctions(root: string): Promise<Map<string, FunctionEntry>> {
  const found = new Map<string, FunctionEntry>();
  const visit = async (dir: string): Promise<void> => {
    const fn = await functionIn(root, dir);
    if (fn) {
      const other = found.get(fn.name);
      if (other) throw configError(`Duplicate function name "${fn.name}": ${other.dir} and ${fn.dir}`);
      found.set(fn.name, fn);
    }
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.includes('.') || SKIPPED_DIRS.has(entry.name)) continue;
      await visit(path.join(dir, entry.name));
    }
  };
  if ((await stat(root).catch(() => null))?.isDirectory()) await visit(root);
  return found;
}

/** A fingerprint of a function's files (names, sizes, modification times): a change restarts it. */
export async function fingerprint(dir: string): Promise<string> {
  const parts: string[] = [];
  const visit = async (current: string): Promise<void> => {
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await visit(full);
      } else if (entry.isFile()) {
        const info = await stat(full).catch(() => null);
        if (info) parts.push(`${full}:${info.size}:${info.mtimeMs}`);
      }
    }
  };
  await visit(dir);
  return parts.join('\n');
}
