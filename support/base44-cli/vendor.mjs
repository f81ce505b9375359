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
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract } from 'tar';

import { installVerified, isInstalled, packVerified } from '../npm-pinned.mjs';

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

/**
 * Makes sure the pinned CLI is unpacked and returns its bin script. Idempotent and safe to rerun:
 * the package is unpacked into a staging folder and moved into place only once verified.
 */
export async function ensureVendorCli({ root = REPO_ROOT, log = () => {} } = {}) {
  const dir = vendorCliDir(root);
  if (isInstalled(dir, VENDOR_CLI.integrity)) return vendorCliBin(root);
  log(`Fetching ${VENDOR_CLI.name}@${VENDOR_CLI.version} (the vendor's CLI) from the npm registry ...`);
  await installVerified({
    dir,
    stamp: VENDOR_CLI.integrity,
    fill: async (staging) => {
      const tarball = packVerified(VENDOR_CLI, staging);
      await extract({ file: tarball, cwd: staging, strict: true });
      rmSync(tarball);
    },
  });
  log(`${VENDOR_CLI.name}@${VENDOR_CLI.version} ready in ${path.relative(root, dir)}`);
  return vendorCliBin(root);
}
