/**
 * The vendor's `base44` CLI, pinned and verified. Why not a plain devDependency: `base44@0.1.18`
 * lists `@deno/loader` as a tarball URL on the JSR registry, which npm cannot fetch where only the
 * npm registry is reachable, so `npm install base44` fails there. The published package is a
 * self-contained bundle, so we fetch exactly that tarball from the npm registry (through the user's
 * own npm: registry, proxy and cache settings apply), check it against the integrity the registry
 * published, and unpack it unmodified. Without `miniflare` installed the CLI itself falls back to
 * running functions on Deno (`deno` from npm, a devDependency), which is its documented fallback.
 *
 * Plain JavaScript on purpose: the `base44` bin and the postinstall step run it before or without tsx.
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
import { fileURLToPath } from 'node:url';
import { extract } from 'tar';

export const VENDOR_CLI = Object.freeze({
  name: 'base44',
  version: '0.1.18',
  /** `dist.integrity` of base44@0.1.18 on the npm registry. */
  integrity: 'sha512-hEdlhAeieHN3EG/c4KpTN6cz1iRyfeO+gloprkGlYy1x7CIhyFDiM2CwfhegZpJuMPbojXrFprLBq0AFR+oc4g==',
});

/** The repository root (this file lives in support/base44-cli/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the unpacked package lives: a dot-folder in node_modules, which npm neither lists nor prunes. */
export function vendorCliDir(root = REPO_ROOT) {
  return path.join(root, 'node_modules', '.base44-cli', VENDOR_CLI.version);
}

/** The vendor's own bin script inside the unpacked package. */
export function vendorCliBin(root = REPO_ROOT) {
  return path.join(vendorCliDir(root), 'package', 'bin', 'run.js');
}

const MARKER = 'integrity.txt';

function isInstalled(dir) {
  const marker = path.join(dir, MARKER);
  return existsSync(marker) && readFileSync(marker, 'utf8').trim() === VENDOR_CLI.integrity;
}

function sha512Integrity(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** npm as the caller runs it: the npm of `npm install` when we are its postinstall, else `npm` on PATH. */
function npmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.c?js$/.test(execPath)) return { command: process.execPath, prefix: [execPath] };
  return { command: process.platform === 'win32' ? 'npm.cmd' : 'npm', prefix: [] };
}

function packTarball(destination) {
  const { command, prefix } = npmCommand();
  const spec = `${VENDOR_CLI.name}@${VENDOR_CLI.version}`;
  const result = spawnSync(command, [...prefix, 'pack', spec, '--pack-destination', destination, '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    throw new Error(`npm pack ${spec} failed (is the npm registry reachable?):\n${result.stderr || result.error}`);
  }
  const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
  return path.join(destination, tarball);
}

/**
 * Makes sure the pinned CLI is unpacked and returns its bin script. Idempotent and safe to rerun:
 * the package is unpacked into a staging folder and moved into place only once verified.
 */
export async function ensureVendorCli({ root = REPO_ROOT, log = () => {} } = {}) {
  const dir = vendorCliDir(root);
  if (isInstalled(dir)) return vendorCliBin(root);
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(path.join(parent, `.staging-${VENDOR_CLI.version}-`));
  try {
    log(`Fetching ${VENDOR_CLI.name}@${VENDOR_CLI.version} (the vendor's CLI) from the npm registry ...`);
    const tarball = packTarball(staging);
    const actual = sha512Integrity(tarball);
    if (actual !== VENDOR_CLI.integrity) {
      throw new Error(
        `${VENDOR_CLI.name}@${VENDOR_CLI.version}: integrity mismatch (expected ${VENDOR_CLI.integrity}, got ${actual}); refusing to install it`,
      );
    }
    await extract({ file: tarball, cwd: staging, strict: true });
    rmSync(tarball);
    writeFileSync(path.join(staging, MARKER), `${VENDOR_CLI.integrity}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    log(`${VENDOR_CLI.name}@${VENDOR_CLI.version} ready in ${path.relative(root, dir)}`);
    return vendorCliBin(root);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
