/**
 * Pinned npm packages that live in the repository's caches, outside the site's dependencies: the
 * vendor CLI (base44-cli/vendor.mjs) and the host matrix's servers from npm (hosts/runtime/install.mjs).
 * What they share: npm as the caller runs it (registry, proxy and cache settings apply), integrity
 * checks against values pinned in this repository, and a staging folder that is moved into place
 * only once everything in it is verified, with a stamp naming what it holds, so an interrupted or
 * tampered install is never used and a rerun is idempotent.
 *
 * Plain JavaScript on purpose: launchers and postinstall steps run it before or without tsx.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

const STAMP = 'integrity.txt';

export function sha512Integrity(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** npm as the caller runs it: the npm of `npm install` when we are its postinstall, else `npm` on PATH. */
export function npmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.c?js$/.test(execPath)) return { command: process.execPath, prefix: [execPath] };
  return { command: process.platform === 'win32' ? 'npm.cmd' : 'npm', prefix: [] };
}

/** Runs npm with `args`; throws with its output and `hint` when it fails. */
export function runNpm(args, { cwd, hint }) {
  const { command, prefix } = npmCommand();
  const result = spawnSync(command, [...prefix, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(`npm ${args.join(' ')} failed (${hint}):\n${result.stderr || result.stdout || result.error}`);
  }
  return result.stdout;
}

/** `npm pack name@version` into `destination`, refused unless it matches the pinned integrity. */
export function packVerified({ name, version, integrity }, destination) {
  const spec = `${name}@${version}`;
  runNpm(['pack', spec, '--pack-destination', destination, '--silent'], {
    cwd: destination,
    hint: 'is the npm registry reachable?',
  });
  const tarball = readdirSync(destination).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
  const file = path.join(destination, tarball);
  const actual = sha512Integrity(file);
  if (actual !== integrity) {
    throw new Error(`${spec}: integrity mismatch (expected ${integrity}, got ${actual}); refusing to install it`);
  }
  return file;
}

/** True when `dir` holds a finished install stamped with `stamp`. */
export function isInstalled(dir, stamp) {
  const marker = path.join(dir, STAMP);
  return existsSync(marker) && readFileSync(marker, 'utf8').trim() === stamp;
}

/**
 * Makes sure `dir` holds a verified install stamped `stamp`: when it does not, `fill(staging)` fills a
 * fresh staging folder next to it (and throws on anything it cannot verify), then the folder is
 * stamped and moved into place. Returns `dir`.
 */
export async function installVerified({ dir, stamp, fill }) {
  if (isInstalled(dir, stamp)) return dir;
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(path.join(parent, `.staging-${path.basename(dir)}-`));
  try {
    await fill(staging);
    writeFileSync(path.join(staging, STAMP), `${stamp}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return dir;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
